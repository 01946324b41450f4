/**
 * The check behind test/browser/i18n-every-state/<element>.test.ts (one file per element, so
 * each runs in a page of its own: all of them in one page took WebKit over two minutes and once
 * lost its browser). Every element, through its states, in each of the nine languages: nothing
 * on screen or in what assistive technology reads (text, accessible names,
 * live announcements) is still in English. All nine in Chromium; Firefox and WebKit walk the
 * languages where their own Intl differs most (`engineLanguages`, web-test-runner.config.mjs).
 *
 * Each state is rendered in English and in the language under test, and the
 * text segments of both are compared (every text node and every text-bearing
 * attribute, shadow roots and nested elements included). A segment that is the
 * same in both renders and still has words in it, once the names the service
 * sent are taken out, is English left behind, unless the translator chose the
 * English word on purpose (the target equals the source in xliff/, e.g.
 * "Total" in French). A state that is not reached fails its own wait.
 */
import { expect } from '@open-wc/testing';
import { setLocale } from '../../../src/i18n/locale.ts';
import { resetSharedBookings } from '../../../src/state/booking.ts';
import { ELEMENTS, LOCALES, newRun, type Scenario } from './element-states.ts';
import { engineLanguages } from '../../elements/helpers/engine.ts';

const walked = await engineLanguages(LOCALES);

// ------------------------------------------------------------------ the comparison

/** Messages a translator kept in English on purpose, as patterns (placeholders match anything). */
const kept = new Map<string, RegExp[]>();

async function keptInEnglish(locale: string): Promise<RegExp[]> {
  const known = kept.get(locale);
  if (known) return known;
  const doc = new DOMParser().parseFromString(await (await fetch(`/xliff/${locale}.xlf`)).text(), 'text/xml');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = (node: Element) =>
    [...node.childNodes].map((n) => (n.nodeType === Node.TEXT_NODE ? escape(n.nodeValue ?? '') : '(.*)')).join('');
  const same = [...doc.getElementsByTagName('trans-unit')]
    .map((u) => [u.getElementsByTagName('source')[0], u.getElementsByTagName('target')[0]] as const)
    .filter(([s, t]) => s && t && pattern(s) === pattern(t))
    .map(([s]) => new RegExp(`^${pattern(s as Element).replace(/\s+/g, ' ').trim()}$`));
  kept.set(locale, same);
  return same;
}

/** What is left of a segment once the service's names are taken out: words of ours, if any. */
function ownWords(segment: string, data: Set<string>): string {
  let rest = segment;
  for (const value of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(value).join(' ');
  return rest.replace(/[\d\s\p{P}\p{S}]+/gu, ' ').trim();
}

const english = new Map<string, { seen: Set<string>; data: Set<string> }>();

async function render(element: string, scenario: Scenario, locale: string) {
  resetSharedBookings();
  const run = newRun(locale);
  await setLocale(locale);
  await scenario.run(run);
  return run;
}

/** One element's states in every language, as one `describe`. */
export function describeEveryLanguage(element: string): void {
  const scenarios = ELEMENTS[element];
  if (!scenarios) throw new Error(`no states described for <${element}>`);
  describe(`<${element}> in every state, in each of the nine languages`, function () {
    this.timeout(180_000);

    after(async () => {
      resetSharedBookings();
      await setLocale('en');
    });

    before(async () => {
      for (const scenario of scenarios) {
        const run = await render(element, scenario, 'en');
        english.set(`${element}|${scenario.state}`, { seen: run.seen, data: run.data });
      }
    });

    it('has English text in English (the baseline the other languages are compared with)', () => {
      for (const scenario of scenarios) {
        const base = english.get(`${element}|${scenario.state}`);
        expect(base && [...base.seen].some((s) => ownWords(s, base.data)), `${scenario.state}: nothing of ours on screen`).to.equal(true);
      }
    });

    for (const locale of LOCALES) {
      const name = `leaves nothing in English in ${locale}`;
      if (!walked.languages.includes(locale)) {
        it.skip(`${name} (walked in Chromium; ${walked.engine} walks ${walked.languages.join(', ')}, where its Intl differs most)`);
        continue;
      }
      it(name, async () => {
        const allowed = await keptInEnglish(locale);
        const left: string[] = [];
        for (const scenario of scenarios) {
          const run = await render(element, scenario, locale);
          const base = english.get(`${element}|${scenario.state}`);
          if (!base) throw new Error('no English baseline');
          const data = new Set([...base.data, ...run.data]);
          for (const segment of run.seen) {
            if (!base.seen.has(segment) || !ownWords(segment, data)) continue;
            if (allowed.some((re) => re.test(segment))) continue;
            left.push(`${scenario.state}: "${segment}"`);
          }
        }
        expect(left, `still in English in ${locale}:\n${left.join('\n')}`).to.deep.equal([]);
      });
    }
  });
}
