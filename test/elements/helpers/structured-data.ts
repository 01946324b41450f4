/**
 * The structured-data validator (@adobe/structured-data-validator) with
 * schema.org's vocabulary offline (schemaorg-jsd's schemaorg.jsonld) and a
 * handler for Google's Event rich result, which the validator does not have.
 *
 * schemaorg-jsd's vocabulary writes `sdo:` and `rdfs:domain` where the
 * validator reads `schema:` and `schema:domainIncludes`; it is rewritten so.
 * It is a subset of schema.org: the terms Google's Event result uses that it
 * lacks are added below, each as schema.org defines it (type, parent, domain).
 */
// @ts-expect-error: a JavaScript package without types
import Validator from '@adobe/structured-data-validator';
// @ts-expect-error: a JavaScript module without types
import BaseValidator from '@adobe/structured-data-validator/src/types/base.js';

type Node = Record<string, unknown>;
type Condition = (data: unknown) => unknown;
/** What a type handler of the validator builds its conditions with (base.js). */
const Handler = BaseValidator as new (options: unknown) => {
  required(name: string, type?: string): Condition;
  recommended(name: string, type?: string): Condition;
};

/** schema.org terms missing from schemaorg-jsd's subset: [id, rdfs type, parent class or the domains]. */
const MISSING: Array<[string, 'rdfs:Class' | 'rdf:Property', string[]]> = [
  ['TheaterEvent', 'rdfs:Class', ['Event']],
  ['eventStatus', 'rdf:Property', ['Event']],
  ['eventAttendanceMode', 'rdf:Property', ['Event']],
  ['availability', 'rdf:Property', ['Offer']],
  ['validFrom', 'rdf:Property', ['Offer']],
];

function vocabulary(jsd: { '@graph': Node[] }): { '@graph': Node[] } {
  const id = (value: unknown) => ({ '@id': String((value as Node)['@id']).replace(/^sdo:/, 'schema:') });
  const graph = jsd['@graph'].map((node) => {
    const out: Node = { '@id': String(node['@id']).replace(/^sdo:/, 'schema:'), '@type': node['@type'] };
    const parents = node['rdfs:subClassOf'];
    if (parents) out['rdfs:subClassOf'] = Array.isArray(parents) ? parents.map(id) : id(parents);
    const domain = node['rdfs:domain'];
    if (domain) out['schema:domainIncludes'] = (Array.isArray(domain) ? domain : [domain]).map(id);
    return out;
  });
  for (const [name, type, related] of MISSING) {
    graph.push(
      type === 'rdfs:Class'
        ? { '@id': `schema:${name}`, '@type': type, 'rdfs:subClassOf': related.map((r) => ({ '@id': `schema:${r}` })) }
        : { '@id': `schema:${name}`, '@type': type, 'schema:domainIncludes': related.map((r) => ({ '@id': `schema:${r}` })) },
    );
  }
  return { '@graph': graph };
}

/**
 * Google's Event rich result (developers.google.com/search/docs/appearance/structured-data/event):
 * required name, startDate, location (a Place with an address); recommended description, endDate,
 * eventStatus, image, offers (price, priceCurrency, availability, url, validFrom), organizer, performer.
 */
class EventHandler extends Handler {
  getConditions() {
    return [
      this.required('name', 'string'),
      this.required('startDate', 'date'),
      this.required('location'),
      this.required('location.name', 'string'),
      this.required('location.address'),
      this.recommended('description'),
      this.recommended('endDate', 'date'),
      this.recommended('eventStatus'),
      this.recommended('image'),
      this.recommended('offers'),
      this.recommended('offers.price', 'number'),
      this.recommended('offers.priceCurrency'),
      this.recommended('offers.availability'),
      this.recommended('offers.url'),
      this.recommended('offers.validFrom', 'date'),
      this.recommended('organizer'),
      this.recommended('performer'),
    ].map((c) => c.bind(this));
  }
}

export interface Issue {
  severity: 'ERROR' | 'WARNING';
  issueMessage: string;
  rootType: string;
  fieldNames?: string[];
}

/** Validate JSON-LD items (what the scripts of a page hold) as the search engine's rich result and schema.org's vocabulary. */
export async function validateJsonLd(items: readonly Node[], schemaOrg: { '@graph': Node[] }): Promise<Issue[]> {
  const validator = new Validator(vocabulary(schemaOrg));
  const handler = [() => Promise.resolve({ default: EventHandler })];
  validator.registeredHandlers.Event = handler;
  validator.registeredHandlers.TheaterEvent = handler;
  const jsonld: Record<string, Node[]> = {};
  for (const item of items) (jsonld[String(item['@type'])] ??= []).push(item);
  return validator.validate({ jsonld });
}
