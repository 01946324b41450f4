/**
 * Focus is never dropped: when a render removes the control that had the
 * keyboard focus (a basket item removed or released, an option list
 * refreshed), focus goes where the host says the customer's next step is,
 * instead of falling to the host page's <body> (which throws a keyboard or
 * screen-reader customer back to the top of someone else's page).
 *
 *   private readonly focus = new FocusRecovery(this, (lost) => this.renderRoot.querySelector('#status'));
 *
 * Before each render it notes the focused element inside the host's shadow
 * root (and, for the host's choice, the `data-focus-key` of its nearest
 * ancestor that has one: which item it was in); after the render, if that
 * element is gone and focus fell out of the host, or it now sits in another
 * item (a list re-rendered in place), it focuses `next(lost)`.
 * Also: `focusSoon(find)` focuses what `find` returns after the next render.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface LostFocus {
  /** The element that had focus (now removed from the document). */
  element: Element;
  /** The `data-focus-key` of its nearest ancestor that had one (e.g. the basket item it was in). */
  key: string | null;
}

type Host = ReactiveControllerHost & HTMLElement;

/** The element with focus inside `root` (through nested open shadow roots), or null. */
export function focusedIn(root: ShadowRoot | null): Element | null {
  let active = root?.activeElement ?? null;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Whether the keyboard focus has fallen out of every control (to the page's body, or nowhere). */
export function focusDropped(host: HTMLElement): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active === document.documentElement || (active === host && !host.shadowRoot?.activeElement);
}

export class FocusRecovery implements ReactiveController {
  private before: LostFocus | null = null;
  private pending: (() => HTMLElement | null | undefined) | null = null;

  constructor(
    private readonly host: Host,
    private readonly next: (lost: LostFocus) => HTMLElement | null | undefined,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    const element = focusedIn(this.host.shadowRoot);
    this.before = element ? { element, key: element.closest<HTMLElement>('[data-focus-key]')?.dataset.focusKey ?? null } : null;
  }

  hostUpdated(): void {
    const lost = this.before;
    this.before = null;
    const pending = this.pending;
    this.pending = null;
    if (pending) {
      pending()?.focus();
      return;
    }
    if (!lost) return;
    // Gone, or still there but now part of something else (a list re-rendered in place: the
    // focused Remove button now another item's). Either way the customer's control is gone.
    const moved = lost.key !== null && lost.element.closest<HTMLElement>('[data-focus-key]')?.dataset.focusKey !== lost.key;
    if (lost.element.isConnected ? moved : focusDropped(this.host)) this.next(lost)?.focus();
  }

  /** After the next render, focus what `find` returns (the host asks for a render). */
  focusSoon(find: () => HTMLElement | null | undefined): void {
    this.pending = find;
    this.host.requestUpdate();
  }
}
