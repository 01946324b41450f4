/** What the ways of choosing by count (best available, general admission) share. */
import { msg } from '../../i18n/msg.ts';
import { html, type nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { MoneyText } from './seat-words.ts';

/** What a way of choosing renders with, from the element. */
export interface ChoiceView {
  maxSeats: number;
  /** An add is in flight. */
  adding: boolean;
  /** The performance cannot be booked on its own (a paired part). */
  notBookable: boolean;
  /** A payment from this tab is open: adding waits (payment-in-progress.ts). */
  paymentOpen: boolean;
  /** Then: the note saying why, beside Add. */
  payment: TemplateResult | typeof nothing;
  /** That note's id, for aria-describedby. */
  paymentNoteId: string;
  /** The paired-performance note, and its id for aria-describedby. */
  paired: TemplateResult | typeof nothing;
  pairedNoteId: string | typeof nothing;
  money: MoneyText;
}

/** "How many tickets?" with 1 … max (at least 1). */
export function renderTicketCount(max: number, current: number, change: (count: number) => void): TemplateResult {
  return html`<label class="row-of"
    >${msg('How many tickets?')}
    <select @change=${(e: Event) => change(Number((e.target as HTMLSelectElement).value))}>
      ${Array.from({ length: Math.max(1, max) }, (_, i) => i + 1).map((n) => html`<option value=${n} ?selected=${n === current}>${n}</option>`)}
    </select>
  </label>`;
}

/** A way of choosing by count: it keeps the count, and a new count re-renders the host. */
export abstract class ChoiceByCount {
  private wanted = 2;

  constructor(protected readonly host: ReactiveControllerHost) {}

  /** How many tickets the visitor wants. */
  get count(): number {
    return this.wanted;
  }

  set count(count: number) {
    if (count === this.wanted) return;
    this.wanted = count;
    this.host.requestUpdate();
  }
}
