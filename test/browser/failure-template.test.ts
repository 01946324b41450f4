/**
 * Every element, through its states (helpers/element-states.ts): whatever
 * failed, the visitor sees the same block (src/elements/failure-view.ts), an
 * alert whose sentence is `error-message` and whose only button is
 * `retry-button`, and every part on screen follows docs/vocabulary.md: a
 * button's part ends in -button, a heading's is heading or ends in -heading,
 * and the outer box is base.
 */
import { expect } from '@open-wc/testing';
import { setLocale } from '../../src/i18n/locale.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { ELEMENTS, newRun } from './helpers/element-states.ts';

/** The shadow roots under `el` (nested elements, like the checkout's confirmation, included). */
function roots(el: Element): ShadowRoot[] {
  const root = el.shadowRoot;
  if (!root) return [];
  return [root, ...[...root.querySelectorAll('*')].flatMap((child) => roots(child))];
}

interface Seen {
  failures: number;
  problems: string[];
}

function look(element: string, state: string, el: Element, seen: Seen): void {
  const where = `<${element}> ${state}`;
  for (const root of roots(el)) {
    const host = (root.host as Element).localName;
    if (![...root.children].some((child) => child.matches('[part~="base"]'))) seen.problems.push(`${where}: <${host}> has no base part around what it renders`);
    for (const failure of [...root.querySelectorAll<HTMLElement>('[part]')].filter((p) => p.getAttribute('part')?.split(/\s+/)[0] === 'error')) {
      seen.failures += 1;
      if (failure.getAttribute('role') !== 'alert') seen.problems.push(`${where}: an error that is not an alert`);
      const message = failure.querySelector('[part~="error-message"]');
      if (!message?.textContent?.trim()) seen.problems.push(`${where}: an error without its error-message`);
      for (const button of failure.querySelectorAll('button')) {
        if (button.getAttribute('part') !== 'retry-button') seen.problems.push(`${where}: a button "${button.textContent?.trim()}" in an error is not retry-button`);
      }
    }
    for (const button of root.querySelectorAll('button, [role="button"]')) {
      const name = (button.getAttribute('part') ?? '').split(/\s+/)[0] ?? '';
      if (!/-button$/.test(name)) seen.problems.push(`${where}: the button "${(button.textContent ?? '').trim().slice(0, 40)}" has part "${name}"`);
    }
    for (const heading of root.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
      const name = (heading.getAttribute('part') ?? '').split(/\s+/)[0] ?? '';
      if (!/(^|-)heading$/.test(name)) seen.problems.push(`${where}: the heading "${(heading.textContent ?? '').trim().slice(0, 40)}" has part "${name}"`);
    }
  }
}

describe('every failure in one template, every part by the rules (in every state of every element)', function () {
  this.timeout(180_000);

  after(async () => {
    resetSharedBookings();
    await setLocale('en');
  });

  for (const [element, scenarios] of Object.entries(ELEMENTS)) {
    it(`<${element}>`, async () => {
      const seen: Seen = { failures: 0, problems: [] };
      for (const scenario of scenarios) {
        resetSharedBookings();
        await setLocale('en');
        await scenario.run(newRun('en', (el) => look(element, scenario.state, el, seen)));
      }
      expect([...new Set(seen.problems)]).to.deep.equal([]);
      // The elements that load something show at least one failure in their states.
      if (element !== 'basket-timer') expect(seen.failures, `no failure state of <${element}> was seen`).to.be.greaterThan(0);
    });
  }
});
