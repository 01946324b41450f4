/**
 * An element that shows a step of the shared selection (an event's dates, a performance's seats)
 * takes the keyboard focus when another element hands it that step (src/state/step-handoff.ts):
 * registered with its booking's selection while connected, again when its booking changes.
 *
 *   new StepFocus(this, () => this.bookingController.booking.selection, async (step) => ...);
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { take, type FocusTaker, type SelectionStep } from '../state/step-handoff.ts';
import type { SelectionStore } from '../state/selection.ts';

export class StepFocus implements ReactiveController {
  private store: SelectionStore | null = null;
  private off: (() => void) | undefined;

  constructor(
    host: ReactiveControllerHost,
    private readonly selection: () => SelectionStore,
    private readonly taker: FocusTaker<SelectionStep>,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    const store = this.selection();
    if (store === this.store) return;
    this.off?.();
    this.store = store;
    this.off = take(store, this.taker);
  }

  hostDisconnected(): void {
    this.off?.();
    this.off = undefined;
    this.store = null;
  }
}

/** Whether an element is shown (a taker that is hidden does not take the focus). */
export const shown = (el: Element): boolean => el.getClientRects().length > 0;
