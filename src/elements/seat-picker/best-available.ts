/**
 * Best available for N tickets (AvailableTickets): the count, the service's best
 * block in each area, and adding one of them.
 */
import { msg, str } from '../../i18n/msg.ts';
import { Task } from '@lit/task';
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { ApiClient } from '../../api/client.ts';
import { toFailure } from '../../state/failure.ts';
import { renderFailure } from '../failure-view.ts';
import type { AddTicketsV2Body, AvailableTicketsResult, TicketAreaInfo } from '../../api/types.ts';
import { plural } from '../../i18n/plural.ts';
import { bestBlock } from '../../state/seat-map.ts';
import type { AddSteps } from './add-to-basket.ts';
import { ChoiceByCount, renderTicketCount, type ChoiceView } from './ticket-count.ts';

export interface BestAvailableOptions {
  /** The performance shown, or null. */
  performanceId: () => number | null;
  /** Whether best available is what the visitor sees now (it loads only then). */
  showing: () => boolean;
  api: () => ApiClient;
  add: (body: AddTicketsV2Body, count: number, then: AddSteps) => Promise<void>;
}

export class BestAvailable extends ChoiceByCount {
  readonly task: Task<readonly [number | null, number, boolean], AvailableTicketsResult | null>;

  constructor(
    host: ReactiveControllerHost,
    private readonly options: BestAvailableOptions,
  ) {
    super(host);
    this.task = new Task(host, {
      args: () => [options.performanceId(), this.count, options.showing()] as const,
      task: async ([id, count, on], { signal }): Promise<AvailableTicketsResult | null> => {
        if (id === null || !on) return null;
        return options.api().getAvailableTickets({ performanceId: id, requiredTicketsCount: count }, { signal });
      },
    });
  }

  render(view: ChoiceView): TemplateResult {
    const count = this.count;
    return html`<div part="best" class="stack">
      ${renderTicketCount(view.maxSeats, count, (n) => (this.count = n))}
      ${view.paired} ${view.payment}
      ${this.task.render({
        pending: () => html`<p part="loading" role="status">${msg('Finding the best seats…')}</p>`,
        complete: (result) => {
          const options = (result?.TicketAreas ?? []).flatMap((area) => {
            const tickets = bestBlock(area.Tickets, count);
            return tickets ? [{ area, tickets }] : [];
          });
          if (!options.length) {
            return html`<p part="empty">${plural(count, {
              one: () => msg(str`No area has ${count} seat left.`),
              other: () => msg(str`No area has ${count} seats together left. Try fewer tickets.`),
            })}</p>`;
          }
          return html`<ul class="options">
            ${options.map((o, i) => this.renderOption(o.area, o.tickets, i, count, view))}
          </ul>`;
        },
        error: (error) => renderFailure(toFailure(error, { otherwise: () => msg('The best seats could not be found.') }).message, () => void this.task.run()),
      })}
    </div>`;
  }

  private renderOption(area: TicketAreaInfo, tickets: readonly TicketAreaInfo['Tickets'][number][], i: number, count: number, view: ChoiceView): TemplateResult {
    const rows = [...new Set(tickets.map((t) => t.TicketName1))].join(', ');
    const seats = tickets.map((t) => t.TicketName2).join(', ');
    const where = plural(tickets.length, { one: () => msg(str`row ${rows}, seat ${seats}`), other: () => msg(str`row ${rows}, seats ${seats}`) });
    const restricted = tickets.some((t) => t.IsRestrictedView);
    const id = `best-${i}`;
    return html`<li class="option" part="option">
      <span id=${id}
        ><strong>${area.AreaName}</strong> · ${where} · ${msg(str`${view.money(area.SellingPrice)} each`)}${restricted
          ? html` · ${msg('restricted view')}`
          : nothing}</span
      >
      <button
        type="button"
        part="add-button"
        aria-describedby=${view.paymentOpen ? `${id} ${view.paymentNoteId}` : id}
        aria-disabled=${view.adding || view.notBookable || view.paymentOpen ? 'true' : 'false'}
        @click=${() => view.adding || view.notBookable || void this.add(tickets.map((t) => t.TicketId))}
      >
        ${msg(str`Add ${count} for ${view.money(area.SellingPrice * count)}`)}
      </button>
    </li>`;
  }

  private async add(ticketIds: number[]): Promise<void> {
    await this.options.add({ Tickets: ticketIds }, ticketIds.length, {
      unavailable: () => void this.task.run(),
      exceeded: (n) => {
        this.count = n;
      },
      retry: () => void this.add(ticketIds),
      done: () => void this.task.run(),
    });
  }
}
