/**
 * A visitor's way from the list of shows to the order's payment page on the demo theatre, walked
 * twice: by keyboard alone (every non-typing key counted: Tab, Shift+Tab, arrows, Enter, Space,
 * Escape; the text typed into the form's fields is not) and by mouse (every click counted). The
 * keyboard visitor knows the page but not its insides: they Tab until the control they want has
 * the focus, use the arrows where a widget offers them, and wait to see what a key did before the
 * next one (the walk waits for what a sighted visitor would wait for; waiting costs no key).
 *
 * Both walks choose the same pair of seats: the first side-by-side pair the service accepts,
 * walking the map from the seat the picker offers first (the keyboard's roving focus).
 */
import type { Locator, Page, Response } from 'playwright-core';

/** The non-typing keys a walk pressed, or the clicks it made. */
export interface Tally {
  count: number;
  /** Each step and what it cost, for the report. */
  steps: [string, number][];
}

const MAX_TABS = 200;

/** Whether the page's focus (through every shadow root) is on one of `targets`. */
function focusedIn(targets: Locator): Promise<boolean> {
  return targets.evaluateAll((els) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return els.some((el) => el === active);
  });
}

/** The page's focused element (through every shadow root) matches `css`. */
function focusedMatches(page: Page, css: string): Promise<boolean> {
  return page.evaluate((selector) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return Boolean(active?.matches(selector));
  }, css);
}

/** Counts the keys a visitor presses. */
export class KeyWalk {
  readonly tally: Tally = { count: 0, steps: [] };
  private step = 0;

  constructor(readonly page: Page) {}

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
    this.tally.count += 1;
    this.step += 1;
  }

  /** Close a step of the walk: what it cost. */
  done(name: string): void {
    this.tally.steps.push([name, this.step]);
    this.step = 0;
  }

  /** Tab (forward) until the focus is on one of `targets` (waiting first until one shows). */
  async tabTo(targets: Locator): Promise<void> {
    await targets.first().waitFor();
    for (let i = 0; !(await focusedIn(targets)); i += 1) {
      if (i >= MAX_TABS) throw new Error(`${MAX_TABS} Tabs did not reach ${String(targets)}`);
      await this.press('Tab');
    }
  }

  /** Press `key` until the focused element matches `css`. */
  async pressUntil(key: string, css: string, max = 60): Promise<void> {
    for (let i = 0; !(await focusedMatches(this.page, css)); i += 1) {
      if (i >= max) throw new Error(`${max} × ${key} did not reach ${css}`);
      await this.press(key);
    }
  }
}

/** Counts the clicks a visitor makes. */
export class ClickWalk {
  readonly tally: Tally = { count: 0, steps: [] };
  private step = 0;

  constructor(readonly page: Page) {}

  /** Click in the middle of the (first) target, as a hand on a mouse does, once it shows. */
  async click(target: Locator): Promise<void> {
    const one = target.first();
    await one.waitFor();
    await one.scrollIntoViewIfNeeded();
    const box = await one.boundingBox();
    if (!box) throw new Error(`${String(target)} has no box`);
    await this.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    this.tally.count += 1;
    this.step += 1;
  }

  done(name: string): void {
    this.tally.steps.push([name, this.step]);
    this.step = 0;
  }
}

/** The service's answer to a check of two seats. */
export const pairChecked = (r: Response): boolean => {
  if (!r.url().includes('/SeatsSelectionValidation')) return false;
  const body = JSON.parse(r.request().postData() ?? '{}') as { TicketIds?: unknown[] };
  return body.TicketIds?.length === 2;
};
