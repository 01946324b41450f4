/**
 * The ONE sanitizer of Stagedoor.
 *
 * The interface says three fields may contain HTML: EventInfo.Description,
 * EventInfo.LongOfferText and VenueInfo.Info. They are shown only through
 * `sanitizedHtml(html)` (a Lit directive) or `sanitizeHtml(html)`; every other
 * field renders as text through ordinary Lit bindings. This is the only file
 * that may use `unsafeHTML`.
 *
 * DOMPurify is loaded with a dynamic `import()` the first time such a field is
 * shown, so a bundler puts it in its own chunk and pages that never show a
 * description never load it. Until it is loaded, the directive renders the
 * field's text only (no markup at all).
 *
 * The allowlist is strict: text formatting, headings, lists, quotes, simple
 * tables, links (http, https and mailto only; web links open in a new tab with
 * `rel="noopener noreferrer"`) and images from http(s) addresses only. No
 * style, script, iframe, form, svg, math, template, no event handlers, no
 * `id`/`class`/`style`/`data-*` attributes.
 *
 * `safeUrl(url)` (src/safe-url.ts, re-exported here) is the same rule for addresses the service sends in plain
 * fields (PlanLink, cast ExternalLinks, image URLs) before they reach an
 * `href` or `src`.
 */
import { nothing } from 'lit';
import { AsyncDirective, directive, type PartInfo, PartType } from 'lit/async-directive.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { Config, DOMPurify } from 'dompurify';
import { compact, WEB_SCHEMES } from './safe-url.ts';

export { safeUrl } from './safe-url.ts';

const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'cite', 'dd', 'del', 'dl', 'dt', 'em', 'h2', 'h3', 'h4', 'h5',
  'h6', 'hr', 'i', 'img', 'ins', 'li', 'mark', 'ol', 'p', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
];

const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'width', 'height', 'lang', 'dir', 'colspan', 'rowspan', 'scope', 'target', 'rel'];

/** Absolute web and mail addresses only: no javascript:, data:, blob:, vbscript:, relative or protocol-relative URLs. */
const LINK_SCHEMES = /^(?:https?:\/\/|mailto:)/i;

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: LINK_SCHEMES,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  SAFE_FOR_TEMPLATES: false,
  SANITIZE_DOM: true,
  SANITIZE_NAMED_PROPS: true,
  KEEP_CONTENT: true,
  WHOLE_DOCUMENT: false,
  // Belt and braces: never kept even if the allowlist above grows by mistake.
  FORBID_TAGS: ['style', 'script', 'iframe', 'frame', 'object', 'embed', 'form', 'input', 'button', 'textarea', 'select',
    'svg', 'math', 'template', 'noscript', 'link', 'meta', 'base', 'video', 'audio', 'source', 'picture'],
  FORBID_ATTR: ['style', 'class', 'id', 'name', 'srcset', 'srcdoc', 'formaction', 'xlink:href', 'action'],
};


function configure(purify: DOMPurify): DOMPurify {
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    const tag = node.localName;
    if (tag === 'a') {
      const href = node.getAttribute('href');
      if (href === null || !LINK_SCHEMES.test(compact(href))) {
        node.removeAttribute('href');
        node.removeAttribute('target');
        node.removeAttribute('rel');
        return;
      }
      // Web links leave the booking page: a new tab keeps the visitor's basket where it was.
      if (WEB_SCHEMES.test(compact(href))) node.setAttribute('target', '_blank');
      else node.removeAttribute('target');
      node.setAttribute('rel', 'noopener noreferrer');
    } else {
      node.removeAttribute('target');
      node.removeAttribute('rel');
    }
    if (tag === 'img') {
      const src = node.getAttribute('src');
      // DOMPurify lets data: through on images; we do not: http(s) only, loaded lazily, no referrer.
      if (src === null || !WEB_SCHEMES.test(compact(src))) {
        node.remove();
        return;
      }
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
      if (!node.hasAttribute('alt')) node.setAttribute('alt', '');
    }
  });
  return purify;
}

let loading: Promise<DOMPurify> | undefined;
let loaded: DOMPurify | undefined;

/** Load (once) and configure our own DOMPurify instance (never the page's global one). */
function loadPurifier(): Promise<DOMPurify> {
  loading ??= import('dompurify')
    .then((module) => {
      loaded = configure(module.default(window));
      return loaded;
    })
    .catch((error: unknown) => {
      loading = undefined; // a later field may try again (e.g. the chunk failed to download)
      throw error;
    });
  return loading;
}

function clean(purify: DOMPurify, html: string): string {
  return purify.sanitize(html, { ...CONFIG, RETURN_TRUSTED_TYPE: false });
}

/** Sanitize HTML from the service. Loads DOMPurify on first use. */
export async function sanitizeHtml(html: string | null | undefined): Promise<string> {
  if (!html) return '';
  return clean(await loadPurifier(), html);
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

class SanitizedHtmlDirective extends AsyncDirective {
  private source: string | undefined;
  private pending: unknown = undefined;

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.CHILD) throw new Error('sanitizedHtml() can only be used in child content.');
  }

  render(html: string | null | undefined): unknown {
    const source = html ?? '';
    this.source = source;
    if (!source.trim()) return nothing;
    if (loaded) return unsafeHTML(clean(loaded, source));
    void loadPurifier().then(
      (purify) => {
        if (this.source !== source) return; // a newer value was rendered meanwhile
        const value = unsafeHTML(clean(purify, source));
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
 * Render an HTML field of the service, sanitized. Text only until DOMPurify
 * has loaded (the first time), then the sanitized markup.
 *
 *   html`<div part="description">${sanitizedHtml(event.Description)}</div>`
 */
export const sanitizedHtml = directive(SanitizedHtmlDirective);

/** For tests: whether DOMPurify has been loaded. */
export function sanitizerLoaded(): boolean {
  return loaded !== undefined;
}

/** Resolves once the sanitizer is loaded (tests await it before reading markup). */
export function whenSanitizerReady(): Promise<void> {
  return loadPurifier().then(() => undefined);
}
