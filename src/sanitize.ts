/**
 * The ONE sanitizer of Stagedoor.
 *
 * The interface says three fields may contain HTML: EventInfo.Description,
 * EventInfo.LongOfferText and VenueInfo.Info. They are shown only through
 * `sanitizedHtml(html)` (a Lit directive) or `sanitizeHtml(html)`; every other
 * field renders as text through ordinary Lit bindings. This is the only file
 * that may write service HTML into the page.
 *
 * ONE policy, below: the elements kept (text formatting, headings, lists,
 * quotes, simple tables, links, images), the elements whose content is kept
 * without them (`div`, `section`, `font`, ...: a CMS's wrappers), the
 * attributes kept. Everything else goes, content and all. No style, script,
 * iframe, form, svg, math, template, no event handlers, no `id`/`class`/
 * `style`/`data-*`/`aria-*` attributes; links http, https and mailto only (web
 * links open in a new tab with `rel="noopener noreferrer"`), images from
 * http(s) addresses only.
 *
 * Two engines apply it, and the same finishing walk (`finish`) follows either:
 * - the browser's own HTML Sanitizer API (`Element.setHTML`, Chromium 146+,
 *   Firefox 148+), which strips scripts, event handlers and `javascript:`
 *   URLs whatever its configuration: nothing to download, and the markup is
 *   there in the first render;
 * - elsewhere (Safari; older Chromium and Firefox), DOMPurify, loaded with a
 *   dynamic `import()` the first time such a field is shown (its own chunk:
 *   pages that never show a description never load it). Until it is loaded,
 *   the directive renders the field's text only (no markup at all).
 * Both parse in an inert document (no script runs, nothing loads); the nodes
 * that survive are what the directive inserts, with no second parse.
 *
 * `safeUrl(url)` (src/safe-url.ts, re-exported here) is the same rule for addresses the service sends in plain
 * fields (PlanLink, cast ExternalLinks, image URLs) before they reach an
 * `href` or `src`.
 */
import { noChange, nothing } from 'lit';
import { AsyncDirective, directive, type PartInfo, PartType } from 'lit/async-directive.js';
import type { Config, DOMPurify } from 'dompurify';
import { isWebUrl, safeUrl } from './safe-url.ts';

export { safeUrl } from './safe-url.ts';

// ------------------------------------------------------------------ the policy

/** Elements kept, with the attributes below. */
const KEEP = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'cite', 'dd', 'del', 'dl', 'dt', 'em', 'h2', 'h3', 'h4', 'h5',
  'h6', 'hr', 'i', 'img', 'ins', 'li', 'mark', 'ol', 'p', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
];

/** Elements that go while their content stays (wrappers and old formatting a CMS writes). */
const UNWRAP = [
  'address', 'article', 'aside', 'bdi', 'bdo', 'big', 'center', 'code', 'data', 'details', 'dfn', 'div', 'figcaption',
  'figure', 'font', 'footer', 'h1', 'header', 'hgroup', 'kbd', 'main', 'nav', 'nobr', 'pre', 'samp', 'section',
  'summary', 'time', 'tt', 'var',
];

/** Attributes kept on the kept elements (links and images are narrowed further by `finish`). */
const ATTRIBUTES = ['href', 'title', 'alt', 'src', 'width', 'height', 'lang', 'dir', 'colspan', 'rowspan', 'scope', 'target', 'rel'];

const KEPT = new Set(KEEP);
const UNWRAPPED = new Set(UNWRAP);
const KEPT_ATTRIBUTES = new Set(ATTRIBUTES);
const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** Absolute web and mail addresses only: no javascript:, data:, blob:, vbscript:, relative or protocol-relative URLs. */
const LINK_SCHEMES = /^(?:https?:\/\/|mailto:)/i;

/**
 * The policy applied to what an engine left (in an inert document): elements
 * and attributes outside it go, wrappers are unwrapped, links and images get
 * their rules. The engines were told the same policy; this is what makes their
 * results the same, and what would still hold if an engine kept too much.
 */
function finish(root: Element): Element {
  for (const node of root.querySelectorAll('*')) {
    const tag = node.localName;
    if (node.namespaceURI !== HTML_NAMESPACE || !KEPT.has(tag)) {
      if (node.namespaceURI === HTML_NAMESPACE && UNWRAPPED.has(tag)) node.replaceWith(...node.childNodes);
      else node.remove();
      continue;
    }
    for (const { name } of [...node.attributes]) if (!KEPT_ATTRIBUTES.has(name)) node.removeAttribute(name);
    if (tag === 'a') {
      // What the engine kept is parsed again as the browser will read it, and written back as parsed.
      const href = safeUrl(node.getAttribute('href'), { allowMail: true });
      if (href === null) {
        node.removeAttribute('href');
        node.removeAttribute('target');
        node.removeAttribute('rel');
        continue;
      }
      node.setAttribute('href', href);
      // Web links leave the booking page: a new tab keeps the visitor's basket where it was.
      if (isWebUrl(href)) node.setAttribute('target', '_blank');
      else node.removeAttribute('target');
      node.setAttribute('rel', 'noopener noreferrer');
      continue;
    }
    node.removeAttribute('target');
    node.removeAttribute('rel');
    if (tag === 'img') {
      const src = safeUrl(node.getAttribute('src'));
      // http(s) only (both engines let data: through on images), loaded lazily, no referrer.
      if (src === null) {
        node.remove();
        continue;
      }
      node.setAttribute('src', src);
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
      if (!node.hasAttribute('alt')) node.setAttribute('alt', '');
    }
  }
  return root;
}

// ------------------------------------------------------------------ the engines

/** A container in a document of its own with no browsing context: parsing into it runs nothing and loads nothing. */
function inertBox(): HTMLElement {
  return document.implementation.createHTMLDocument('').createElement('div');
}

type WithSetHTML = Element & { setHTML(html: string, options: { sanitizer: SanitizerConfig }): void };

/** The HTML Sanitizer API as specified now (Chromium 105–118 had an earlier `setHTML` of another shape: not that one). */
function platformSanitizer(): boolean {
  return (
    typeof Sanitizer === 'function' &&
    typeof (Sanitizer.prototype as Partial<Sanitizer>).get === 'function' &&
    typeof (Element.prototype as Partial<WithSetHTML>).setHTML === 'function'
  );
}

/** The policy for the Sanitizer API (the wrappers are kept for `finish` to unwrap, as DOMPurify keeps them). */
const PLATFORM_CONFIG: SanitizerConfig = { elements: [...KEEP, ...UNWRAP], attributes: ATTRIBUTES, comments: false, dataAttributes: false };

/** The same policy for DOMPurify (never the page's global instance: ours, made once). */
const PURIFY_CONFIG: Config = {
  // '#text': text nodes (DOMPurify names them so; it adds them itself only with KEEP_CONTENT).
  ALLOWED_TAGS: ['#text', ...KEEP, ...UNWRAP],
  ALLOWED_ATTR: ATTRIBUTES,
  ALLOWED_URI_REGEXP: LINK_SCHEMES,
  // DOMPurify holds every attribute not named here to the address rule above (`lang="de"` would go).
  ADD_URI_SAFE_ATTR: ATTRIBUTES.filter((name) => name !== 'href' && name !== 'src'),
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Everything outside the policy goes with its content, as the Sanitizer API removes it.
  KEEP_CONTENT: false,
  WHOLE_DOCUMENT: false,
  RETURN_DOM_FRAGMENT: true,
};

/** Which engine this browser uses; `undefined` until the first field asks. */
let engine: 'platform' | 'dompurify' | undefined;
let loading: Promise<DOMPurify> | undefined;
let purifier: DOMPurify | undefined;

/** The sanitized nodes of `html`, in an inert container; undefined while DOMPurify is still needed and not loaded. */
function sanitizeNow(html: string): Element | undefined {
  engine ??= platformSanitizer() ? 'platform' : 'dompurify';
  if (engine === 'platform') {
    const box = inertBox() as unknown as WithSetHTML;
    try {
      box.setHTML(html, { sanitizer: PLATFORM_CONFIG });
      return finish(box);
    } catch {
      engine = 'dompurify'; // an implementation that refuses the policy: the library applies it instead
    }
  }
  if (!purifier) return undefined;
  const box = inertBox();
  box.append(purifier.sanitize(html, PURIFY_CONFIG) as unknown as DocumentFragment);
  return finish(box);
}

/** Load (once) DOMPurify, for a browser without the Sanitizer API. */
function loadPurifier(): Promise<unknown> {
  if (engine === 'platform' || purifier) return Promise.resolve();
  loading ??= import('dompurify')
    .then((module) => (purifier = module.default(window)))
    .catch((error: unknown) => {
      loading = undefined; // a later field may try again (e.g. the chunk failed to download)
      throw error;
    });
  return loading;
}

/** Sanitize HTML from the service into markup (the nodes the directive would insert, serialized). */
export async function sanitizeHtml(html: string | null | undefined): Promise<string> {
  if (!html) return '';
  let box = sanitizeNow(html);
  if (!box) {
    await loadPurifier();
    box = sanitizeNow(html);
  }
  return box?.innerHTML ?? '';
}

const INERT_TEXT_SKIP = 'script,style,template,noscript,iframe,svg,math,object,embed,title,textarea,xmp,noembed,noframes';

/**
 * The text of an HTML string, read in an inert document (DOMParser runs no
 * script and loads nothing), without the contents of script-like elements.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const el of doc.body.querySelectorAll(INERT_TEXT_SKIP)) el.remove();
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The sanitized nodes as a fragment of this document, to insert. */
function nodesOf(box: Element): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(...document.importNode(box, true).childNodes);
  return fragment;
}

class SanitizedHtmlDirective extends AsyncDirective {
  private source: string | undefined;
  private pending: unknown = undefined;

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.CHILD) throw new Error('sanitizedHtml() can only be used in child content.');
  }

  render(html: string | null | undefined): unknown {
    const source = html ?? '';
    // The same field again: what is shown stays (no re-insertion, links keep their focus).
    if (source === this.source) return noChange;
    this.source = source;
    this.pending = undefined;
    if (!source.trim()) return nothing;
    const box = sanitizeNow(source);
    if (box) return nodesOf(box);
    void loadPurifier().then(
      () => {
        const ready = this.source === source && sanitizeNow(source); // else a newer value was rendered meanwhile
        if (!ready) return;
        const value = nodesOf(ready);
        if (this.isConnected) this.setValue(value);
        else this.pending = value;
      },
      () => {
        /* stays as text: safe, if plainer */
      },
    );
    return htmlToText(source);
  }

  protected override reconnected(): void {
    if (this.pending !== undefined) {
      const value = this.pending;
      this.pending = undefined;
      this.setValue(value);
    }
  }
}

/**
 * Render an HTML field of the service, sanitized. With the Sanitizer API, the
 * markup at once; without it, text only until DOMPurify has loaded (the first
 * time), then the markup.
 *
 *   html`<div part="description">${sanitizedHtml(event.Description)}</div>`
 */
export const sanitizedHtml = directive(SanitizedHtmlDirective);

/** Which engine sanitizes in this browser: its own Sanitizer API, or DOMPurify. */
export function sanitizerEngine(): 'platform' | 'dompurify' {
  engine ??= platformSanitizer() ? 'platform' : 'dompurify';
  return engine;
}

/** For tests: whether DOMPurify has been loaded (never, in a browser with the Sanitizer API). */
export function purifierLoaded(): boolean {
  return purifier !== undefined;
}

/** Resolves once fields can be sanitized at once (tests await it before reading markup). */
export function whenSanitizerReady(): Promise<void> {
  sanitizerEngine();
  return loadPurifier().then(() => undefined);
}
