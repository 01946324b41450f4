/**
 * General admission (unreserved seating, AreasPrices + BestSeats): an area and
 * a price, how many tickets, and adding them.
 */
import { msg, str } from '../../i18n/msg.ts';
import { html, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { AddTicketsV2Body, AreaPriceGroup } from '../../api/types.ts';
import { plural } from '../../i18n/plural.ts';
import type { AddSteps } from './add-to-basket.ts';
import { ChoiceByCount, renderTicketCount, type ChoiceView } from './ticket-count.ts';

export interface GeneralAdmissionOptions {
  /** The performance shown, or null. */
  performanceId: () => number | null;
  /** Load the areas and prices again. */
  reload: () => void;
  add: (body: AddTicketsV2Body, count: number, then: AddSteps) => Promise<void>;
}

export class GeneralAdmission extends ChoiceByCount {
  /** The chosen `AreaId:Price` (null: the first one). */
  private chosenKey: string | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly options: GeneralAdmissionOptions,
  ) {
    super(host);
  }

  private choose(key: string): void {
    if (key === this.chosenKey) return;
    this.chosenKey = key;
    this.host.requestUpdate();
  }

  render(areas: readonly AreaPriceGroup[], view: ChoiceView): TemplateResult {
    const choices = areas.flatMap((a) => a.Prices.filter((p) => p.AvailableSeatsCount > 0).map((p) => ({ area: a, price: p, key: `${a.AreaId}:${p.Price}` })));
    const chosen = choices.find((c) => c.key === this.chosenKey) ?? choices[0];
    const max = Math.min(view.maxSeats, chosen?.price.AvailableSeatsCount ?? view.maxSeats);
    const count = Math.min(this.count, max); // never more than are left at the chosen price
    return html`<div part="general" class="stack">
      <p class="muted">${msg('Unreserved seating: choose an area and a price, and how many tickets.')}</p>
      <fieldset>
        <legend>${msg('Area and price')}</legend>
        ${choices.map(
          (c) => html`<label class="radio" part="option"
            ><input type="radio" name="ga" .checked=${c === chosen} @change=${() => this.choose(c.key)} />${c.area.AreaName} · ${view.money(c.price.Price)}
            <span class="muted">${msg(str`(${c.price.AvailableSeatsCount} left)`)}</span></label
          >`,
        )}
      </fieldset>
      ${renderTicketCount(max, count, (n) => (this.count = n))}
      <p class="total" part="total">${msg(str`Total: ${view.money((chosen?.price.Price ?? 0) * count)}`)}</p>
      ${view.paired} ${view.payment}
      <button
        type="button"
        part="add-button"
        aria-disabled=${!chosen || view.adding || view.notBookable || view.paymentOpen ? 'true' : 'false'}
        aria-describedby=${view.paymentOpen ? [view.paymentNoteId, view.pairedNoteId].filter((id) => typeof id === 'string').join(' ') : view.pairedNoteId}
        @click=${() => chosen && !view.adding && !view.notBookable && void this.add(chosen.area.AreaId, chosen.price.Price, count)}
      >
        ${view.adding
          ? msg('Adding…')
          : plural(count, { one: () => msg(str`Add ${count} ticket to basket`), other: () => msg(str`Add ${count} tickets to basket`) })}
      </button>
    </div>`;
  }

  private async add(areaId: number, price: number, count: number): Promise<void> {
    const id = this.options.performanceId();
    if (id === null) return;
    await this.options.add({ BestSeats: { PerformanceId: id, AreaId: areaId, SeatsCount: count, Price: price } }, count, {
      unavailable: () => this.options.reload(),
      exceeded: (n) => {
        this.count = n;
        void this.add(areaId, price, n);
      },
      retry: () => void this.add(areaId, price, count),
      done: () => this.options.reload(),
    });
  }
}
