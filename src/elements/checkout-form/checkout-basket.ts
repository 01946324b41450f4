/**
 * The basket in <checkout-form>: its items and tickets, removing one, and emptying it (with an inline confirmation).
 * While a change is in flight its buttons are aria-disabled, not disabled: the one with the focus keeps it.
 */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, type TemplateResult } from 'lit';
import type { BasketContent, BasketItem, BasketTicket, ETicketNotice } from '../../api/types.ts';
import { formatDateTime, formatList, formatMoney } from '../../format.ts';
import type { BasketState } from '../../state/basket-store.ts';
import type { BookingConfig } from '../../state/config.ts';
import { subtotal } from './checkout-data.ts';

export interface BasketView {
  basket: BasketState;
  config: BookingConfig;
  /** The e-ticket notices of the checkout options (shown beside their events), once loaded. */
  eTicketNotices: readonly ETicketNotice[] | undefined;
  /** Asking whether to empty the basket. */
  confirmingEmpty: boolean;
  onRemove: (item: BasketItem) => void;
  onAskEmpty: () => void;
  onConfirmEmpty: () => void;
  onCancelEmpty: () => void;
}

export function renderBasket(content: BasketContent, view: BasketView): TemplateResult {
  const { basket, config } = view;
  const busy = basket.busy === 'remove' || basket.busy === 'clear';
  const storeError = basket.error && (basket.error.action === 'remove' || basket.error.action === 'clear') ? basket.error : null;
  return html`<section part="basket" aria-labelledby="basket-heading">
    <h2 id="basket-heading" part="heading" tabindex="-1">${msg('Your basket')}</h2>
    ${storeError ? html`<p role="alert" part="message error">${storeError.message}</p>` : nothing}
    <ul part="items">
      ${content.Items.map((item) => renderItem(item, busy, view))}
    </ul>
    <p class="actions">
      <span>${msg(str`Subtotal: ${formatMoney(subtotal(content), config)}`)}</span>
    </p>
    ${view.confirmingEmpty
      ? html`<div part="empty-confirm" role="group" aria-labelledby="empty-question">
          <p id="empty-question">${msg('Remove every ticket from your basket? The seats will be released.')}</p>
          <div class="actions">
            <button part="confirm-empty-button" aria-disabled=${busy ? 'true' : 'false'} @click=${() => busy || view.onConfirmEmpty()}>${msg('Yes, empty my basket')}</button>
            <button part="cancel-empty-button" data-variant="secondary" @click=${view.onCancelEmpty}>${msg('Keep my tickets')}</button>
          </div>
        </div>`
      : html`<div class="actions">
          <button part="empty-button" data-variant="secondary" aria-disabled=${busy ? 'true' : 'false'} @click=${() => busy || view.onAskEmpty()}>${msg('Empty basket')}</button>
        </div>`}
  </section>`;
}

function renderItem(item: BasketItem, busy: boolean, view: BasketView): TemplateResult {
  const config = view.config;
  const when = formatDateTime(item.PerformanceDate, config, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  const notices = view.eTicketNotices?.filter((n) => n.EventId === item.EventId) ?? [];
  const titleId = `item-${item.BasketItemId}-title`;
  // Focusable (not in the tab order): where focus goes when the item is added, or the one before it removed.
  return html`<li part="item" aria-labelledby=${titleId} tabindex="-1" data-item-id=${item.BasketItemId} data-focus-key=${`item-${item.BasketItemId}`}>
    <div class="item-head">
      <h3 id=${titleId} part="item-heading">${item.EventName}</h3>
      <button part="remove-button" data-variant="secondary" aria-disabled=${busy ? 'true' : 'false'}
        aria-label=${msg(str`Remove ${item.EventName}, ${when}`)}
        @click=${() => busy || view.onRemove(item)}>${msg('Remove')}</button>
    </div>
    <p part="item-meta" class="meta">${when} · ${item.VenueName}${item.VenueCity ? `, ${item.VenueCity}` : ''}</p>
    <p part="item-meta" class="meta">${item.AreaName}${item.Seats.length ? html` · ${msg(str`Seats ${formatList(item.Seats, config, { style: 'short', type: 'unit' })}`)}` : nothing}</p>
    <table part="tickets">
      <caption class="visually-hidden">${msg(str`Tickets for ${item.EventName}`)}</caption>
      <thead>
        <tr>
          <th scope="col">${msg('Seat')}</th>
          <th scope="col" class="num">${msg('Face value')}</th>
          <th scope="col" class="num">${msg('Price')}</th>
        </tr>
      </thead>
      <tbody>
        ${item.Tickets.map((ticket) => renderTicket(ticket, config))}
      </tbody>
    </table>
    ${notices.map((n) => html`<p part="eticket-notice">${n.Message}</p>`)}
    <p part="item-subtotal">${msg(str`Item total: ${formatMoney(item.PriceSubTotal, config)}`)}</p>
  </li>`;
}

function renderTicket(ticket: BasketTicket, config: BookingConfig): TemplateResult {
  const seat = [ticket.TicketName1, ticket.TicketName2].filter(Boolean).join(' ');
  return html`<tr>
    <td>
      ${seat}
      ${ticket.IsRestrictedView
        ? html`<span part="restriction">${msg('Restricted view')}${ticket.RestrictionDescription ? `: ${ticket.RestrictionDescription}` : ''}</span>`
        : nothing}
    </td>
    <td class="num">${formatMoney(ticket.FaceValue, config)}</td>
    <td class="num">${formatMoney(ticket.SellingPrice, config)}</td>
  </tr>`;
}
