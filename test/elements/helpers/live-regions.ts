/**
 * What a screen reader would hear from an element's live regions, in order: every change of
 * text inside a live region (`role="alert"`, `role="status"`, `role="log"` or `aria-live`
 * polite/assertive, the nearest one deciding, `aria-live="off"` silencing), and every alert
 * inserted with its text. Each is the whole region's text (these regions are atomic) with its
 * politeness, once per render; a region emptied says nothing (removals are not read).
 *
 *   const ear = listen(el.shadowRoot);
 *   ... act ...
 *   expect(ear.heard).to.deep.equal([{ politeness: 'assertive', text: 'There are 3 problems …' }]);
 *   ear.stop();
 */
export interface Heard {
  politeness: 'assertive' | 'polite';
  text: string;
}

const LIVE = '[aria-live], [role="alert"], [role="status"], [role="log"]';

function politeness(region: Element): Heard['politeness'] | null {
  const live = region.getAttribute('aria-live');
  if (live === 'assertive' || live === 'polite') return live;
  if (live === 'off') return null;
  return region.getAttribute('role') === 'alert' ? 'assertive' : 'polite';
}

/** The text as read out: list items and blocks apart (innerText), spaces as one. */
const textOf = (node: Element) => ((node instanceof HTMLElement ? node.innerText : node.textContent) ?? '').replace(/\s+/g, ' ').trim();

export function listen(root: Node | null | undefined): { heard: Heard[]; stop(): void } {
  if (!root) throw new Error('nothing to listen to');
  const heard: Heard[] = [];
  const observer = new MutationObserver((records) => {
    const regions = new Set<Element>();
    for (const record of records) {
      const at = record.target instanceof Element ? record.target : record.target.parentElement;
      const region = at?.closest(LIVE);
      if (region) regions.add(region);
      // An alert put into the page (or a part holding one) is read as it arrives.
      for (const added of record.addedNodes) {
        if (added instanceof Element) for (const alert of [added, ...added.querySelectorAll('[role="alert"]')]) if (alert.matches('[role="alert"]')) regions.add(alert);
      }
    }
    for (const region of regions) {
      const loudness = region.isConnected ? politeness(region) : null;
      const text = textOf(region);
      if (loudness && text) heard.push({ politeness: loudness, text });
    }
  });
  observer.observe(root, { childList: true, characterData: true, subtree: true });
  return { heard, stop: () => observer.disconnect() };
}
