/**
 * The sanitizer's tests, run once per engine (test/elements/sanitize.test.ts
 * with the browser's own HTML Sanitizer API, sanitize-dompurify.test.ts on a
 * page without it, where DOMPurify does the work): the same policy, the same
 * outputs, nothing executable from any hostile string.
 */
import { expect, fixture, html, nextFrame } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { render } from 'lit';
import { htmlToText, purifierLoaded, safeUrl, sanitizedHtml, sanitizeHtml, sanitizerEngine, whenSanitizerReady } from '../../../src/sanitize.ts';
import { XSS_PAYLOADS } from './xss-payloads.ts';

type XssWindow = Window & { __xss?: boolean };
const flag = () => (window as XssWindow).__xss;

const ALLOWED = new Set([
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'cite', 'dd', 'del', 'dl', 'dt', 'em', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'i', 'img', 'ins', 'li', 'mark', 'ol', 'p', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
]);

/** Every element and attribute of sanitized markup is on the allowlist, and every address is http(s) or mailto. */
export function assertSafeMarkup(markup: string, payload: string): void {
  const template = document.createElement('template');
  template.innerHTML = markup;
  for (const el of template.content.querySelectorAll('*')) {
    const where = `${payload} → ${markup}`;
    expect(ALLOWED.has(el.localName), `<${el.localName}> kept from ${where}`).to.equal(true);
    for (const attr of el.attributes) {
      expect(attr.name.startsWith('on'), `${attr.name} kept from ${where}`).to.equal(false);
      expect(['style', 'srcdoc', 'srcset', 'id', 'class', 'formaction', 'xlink:href'], `${attr.name} kept from ${where}`).not.to.include(attr.name);
    }
    const href = el.getAttribute('href');
    if (href !== null) expect(href, where).to.match(/^(https?:\/\/|mailto:)/i);
    const src = el.getAttribute('src');
    if (src !== null) expect(src, where).to.match(/^https?:\/\//i);
  }
}

/**
 * The policy's outputs, exactly: the same for either engine (each suite run
 * checks them, so the two agree).
 */
const OUTPUTS: readonly (readonly [string, string])[] = [
  ['<p>Hello <strong>world</strong><script>window.__xss=true</script></p>', '<p>Hello <strong>world</strong></p>'],
  ['<div class="intro"><p id="x" style="color:red" data-a="1" aria-label="z" lang="de">Hallo</p></div>', '<p lang="de">Hallo</p>'],
  ['<font face="Arial"><center>Centred</center></font><h1>Title</h1>', 'CentredTitle'],
  ['<section><h2>Cast</h2><ul><li>One</li></ul></section>', '<h2>Cast</h2><ul><li>One</li></ul>'],
  ['Before<marquee>gone</marquee><x-card>gone too</x-card><svg><text>svg</text></svg>after', 'Beforeafter'],
  ['<!-- a comment --><em>kept</em>', '<em>kept</em>'],
  ['<a href="https://a.example/x" target="_self" rel="opener">web</a>', '<a href="https://a.example/x" target="_blank" rel="noopener noreferrer">web</a>'],
  ['<a href="mailto:box@a.example" target="_blank">mail</a>', '<a href="mailto:box@a.example" rel="noopener noreferrer">mail</a>'],
  ['<a href="javascript:alert(1)" onclick="x()">js</a><a href="/relative">rel</a>', '<a>js</a><a>rel</a>'],
  ['<img src="https://img.example/a.png" onerror="x()"><img src="data:image/png;base64,AAAA" alt="D">', '<img src="https://img.example/a.png" loading="lazy" referrerpolicy="no-referrer" alt="">'],
  ['<table><tr><td colspan="2" style="x">cell</td></tr></table>', '<table><tbody><tr><td colspan="2">cell</td></tr></tbody></table>'],
  ['<p target="_blank" rel="x">p</p>', '<p>p</p>'],
  // Addresses as the URL parser reads them, written back parsed: what it ignores (tab/LF/CR, C0 and space at the ends) goes.
  ['<a href="&#10; https://a.example/x y&#9;">sp</a><a href="ht&#13;tps://a.example/">cr</a>', '<a href="https://a.example/x%20y" target="_blank" rel="noopener noreferrer">sp</a><a href="https://a.example/" target="_blank" rel="noopener noreferrer">cr</a>'],
];

/**
 * Characters a pattern might strip but the URL parser does not: with one inside the scheme the
 * address is a relative path, which the page resolves against its own origin (a GET with its cookies).
 */
const NOT_IGNORED_BY_THE_PARSER = ['\u0085', '\u00a0', '\u1680', '\u2000', '\u2028', '\u3000', '\ufeff', ' ', '\u007f'];
const char = (escaped: string) => JSON.parse(`"${escaped}"`) as string;

/** Whether this page has the browser's own HTML Sanitizer API (WebKit has none). */
export const hasSanitizerApi = (): boolean => 'setHTML' in Element.prototype;

/**
 * For a browser without the Sanitizer API, in place of the suite that needs it: says so in its
 * name, and checks that the sanitizer takes DOMPurify here (whose suite, the twin, runs in full).
 */
export function lacksSanitizerApi(what: string): void {
  describe(`${what}: needs the browser's Sanitizer API, which this browser lacks (the DOMPurify twin runs instead)`, () => {
    it('sanitizes with DOMPurify in this browser', () => {
      expect(hasSanitizerApi()).to.equal(false);
      expect(sanitizerEngine()).to.equal('dompurify');
    });
  });
}

export function sanitizeSuite(engine: 'platform' | 'dompurify'): void {
  if (engine === 'platform' && !hasSanitizerApi()) return lacksSanitizerApi('sanitize');
  describe(`sanitize (${engine === 'platform' ? "the browser's Sanitizer API" : 'DOMPurify, no Sanitizer API'})`, () => {
    beforeEach(() => {
      delete (window as XssWindow).__xss;
    });

    it(`runs on ${engine === 'platform' ? 'the Sanitizer API' : 'DOMPurify'} in this page`, () => {
      expect(sanitizerEngine()).to.equal(engine);
    });

    if (engine === 'platform') {
      it('renders the sanitized markup in the first render, and never loads DOMPurify', async () => {
        const host = await fixture<HTMLDivElement>(html`<div></div>`);
        render(html`${sanitizedHtml('<p>Hello <strong>world</strong><script>window.__xss=true</script></p>')}`, host);
        expect(host.querySelector('strong')?.textContent).to.equal('world');
        expect(host.querySelector('script')).to.equal(null);
        await whenSanitizerReady();
        await sanitizeHtml('<em>x</em>');
        expect(purifierLoaded()).to.equal(false);
      });
    } else {
      it('renders text only until DOMPurify has loaded (lazily, on first use), then the sanitized markup', async () => {
        expect(purifierLoaded()).to.equal(false);
        const host = await fixture<HTMLDivElement>(html`<div></div>`);
        render(html`${sanitizedHtml('<p>Hello <strong>world</strong><script>window.__xss=true</script></p>')}`, host);
        expect(host.querySelector('strong')).to.equal(null);
        expect(host.textContent?.trim()).to.equal('Hello world');
        await waitUntil(() => host.querySelector('strong'), 'sanitized markup did not arrive');
        expect(purifierLoaded()).to.equal(true);
        expect(host.querySelector('p')?.textContent).to.equal('Hello world');
        expect(host.querySelector('script')).to.equal(null);
        // Once loaded, later fields render markup at once.
        render(html`${sanitizedHtml('<em>now</em>')}`, host);
        expect(host.querySelector('em')?.textContent).to.equal('now');
      });
    }

    it('keeps formatting, lists and safe links; web links open in a new tab with rel="noopener noreferrer"', async () => {
      const out = await sanitizeHtml(
        '<h3>Title</h3><p><b>b</b> <i>i</i> <u>u</u></p><ul><li>one</li></ul>' +
          '<a href="https://a.example/x" target="_self">web</a><a href="mailto:box@a.example" target="_blank">mail</a>' +
          '<a href="/relative">rel</a><img src="https://img.example/a.png" alt="A"><img src="data:image/png;base64,AAAA" alt="D">',
      );
      const t = document.createElement('template');
      t.innerHTML = out;
      const [web, mail, relative] = [...t.content.querySelectorAll('a')];
      expect(web?.getAttribute('target')).to.equal('_blank');
      expect(web?.getAttribute('rel')).to.equal('noopener noreferrer');
      expect(mail?.getAttribute('href')).to.equal('mailto:box@a.example');
      expect(mail?.hasAttribute('target')).to.equal(false);
      expect(relative?.hasAttribute('href')).to.equal(false);
      expect(relative?.textContent).to.equal('rel');
      const imgs = [...t.content.querySelectorAll('img')];
      expect(imgs.map((i) => i.getAttribute('src'))).to.deep.equal(['https://img.example/a.png']);
      expect(imgs[0]?.getAttribute('loading')).to.equal('lazy');
      expect(t.content.querySelector('h3')?.textContent).to.equal('Title');
      expect(t.content.querySelectorAll('b, i, u, li').length).to.equal(4);
    });

    it('applies one policy: wrappers go and their text stays, the rest goes with its content (the same output on either engine)', async () => {
      for (const [input, expected] of OUTPUTS) expect(await sanitizeHtml(input), input).to.equal(expected);
      expect(flag()).to.equal(undefined);
    });

    it('drops an address that is a relative path to the URL parser, however much it looks like http(s) with a stray character', async () => {
      for (const escaped of NOT_IGNORED_BY_THE_PARSER) {
        const c = char(escaped);
        const hex = c.codePointAt(0)?.toString(16) ?? '';
        const input = `<p>a<img src="h&#x${hex};ttps://x.example/i.png">b<a href="h&#x${hex};ttps://evil.example/">link</a></p>`;
        expect(await sanitizeHtml(input), escaped).to.equal('<p>ab<a>link</a></p>');
        expect(safeUrl(`h${c}ttps://x.example/`), escaped).to.equal(null);
        expect(safeUrl(`h${c}ttps://x.example/`, { allowMail: true }), escaped).to.equal(null);
        // A leading space the parser strips; the others it does not, and the address is relative.
        if (c !== ' ') expect(safeUrl(`${c}https://x.example/`), escaped).to.equal(null);
      }
    });

    it(`leaves nothing executable in any of ${XSS_PAYLOADS.length} hostile strings`, async () => {
      expect(XSS_PAYLOADS.length).to.be.at.least(50);
      for (const payload of XSS_PAYLOADS) assertSafeMarkup(await sanitizeHtml(payload), payload);
    });

    it('runs none of them when rendered into the page through the directive', async () => {
      await whenSanitizerReady();
      const host = await fixture<HTMLDivElement>(html`<div></div>`);
      const shadow = host.attachShadow({ mode: 'open' });
      render(html`${XSS_PAYLOADS.map((p) => html`<section>${sanitizedHtml(p)}</section>`)}`, shadow);
      await nextFrame();
      await new Promise((resolve) => setTimeout(resolve));
      await nextFrame();
      expect(flag()).to.equal(undefined);
      for (const section of shadow.querySelectorAll('section')) assertSafeMarkup(section.innerHTML, 'rendered');
    });

    it('keeps what it rendered when rendered again with the same field (no re-insertion), and replaces it for a new one', async () => {
      await whenSanitizerReady();
      const host = await fixture<HTMLDivElement>(html`<div></div>`);
      const view = (value: string) => render(html`<div>${sanitizedHtml(value)}</div>`, host);
      view('<p><a href="https://a.example/">link</a></p>');
      const link = host.querySelector('a');
      view('<p><a href="https://a.example/">link</a></p>');
      expect(host.querySelector('a')).to.equal(link);
      view('<p>other</p>');
      expect(host.querySelector('a')).to.equal(null);
      expect(host.querySelector('p')?.textContent).to.equal('other');
    });

    it('the flag the payloads set does get set by unsanitized markup (the harness can fail)', async () => {
      const host = await fixture<HTMLDivElement>(html`<div></div>`);
      host.innerHTML = XSS_PAYLOADS[4] ?? '';
      await waitUntil(() => flag() === true, 'the control payload did not run');
      host.innerHTML = '';
    });

    it('reads the text of HTML without running or loading anything', () => {
      expect(htmlToText('<p>A <b>b</b></p><script>window.__xss=true</script><style>p{}</style>')).to.equal('A b');
      expect(htmlToText('<img src=x onerror=window.__xss=true>text')).to.equal('text');
      expect(flag()).to.equal(undefined);
    });

    it('safeUrl lets through absolute http(s) only (and mailto when asked)', () => {
      expect(safeUrl('https://a.example/x y')).to.equal('https://a.example/x%20y');
      expect(safeUrl('http://a.example')).to.equal('http://a.example/');
      expect(safeUrl('javascript:alert(1)')).to.equal(null);
      expect(safeUrl(' java\tscript:alert(1)')).to.equal(null);
      expect(safeUrl('data:text/html,x')).to.equal(null);
      expect(safeUrl('//evil.example/x')).to.equal(null);
      expect(safeUrl('/relative')).to.equal(null);
      expect(safeUrl('mailto:a@b.example')).to.equal(null);
      expect(safeUrl('mailto:a@b.example', { allowMail: true })).to.equal('mailto:a@b.example');
      expect(safeUrl(null)).to.equal(null);
      expect(safeUrl('\t https://a.example/\n')).to.equal('https://a.example/');
      expect(safeUrl('https:a.example')).to.equal('https://a.example/');
      expect(safeUrl('https://')).to.equal(null);
      expect(safeUrl('ftp://a.example/')).to.equal(null);
    });
  });
}
