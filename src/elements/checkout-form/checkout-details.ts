/** The checkout form's sections: error summary, notices, delivery, customer details, options and totals. */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { keyed } from 'lit/directives/keyed.js';
import { live } from 'lit/directives/live.js';
import type { BasketContent, CheckoutOptions, DeliveryType } from '../../api/types.ts';
import { formatMoney } from '../../format.ts';
import { plural } from '../../i18n/plural.ts';
import type { BookingConfig } from '../../state/config.ts';
import { orderTotal, protectionPrice, subtotal, ticketCount, type PriceChoices, type SystemLists } from './checkout-data.ts';
import { countryOptions, TEXT_FIELDS, type Problem, type TextFieldSpec, type Values } from './checkout-fields.ts';

/** What the sections show: the visitor's entries and choices, and the messages after a submit attempt. */
export interface FormState extends PriceChoices {
  config: BookingConfig;
  values: Values;
  sendConfirmationEmail: boolean;
  confirmed: ReadonlySet<number>;
  /** A submit was attempted: field errors are shown from then on. */
  attempted: boolean;
  fieldErrors: Readonly<Record<string, string>>;
}

/** A control's error message, once a submit was attempted. */
function errorOf(state: FormState, name: string): string | undefined {
  return state.attempted ? state.fieldErrors[name] : undefined;
}

/**
 * After a submit attempt: every problem, each a link to its control. Read out (an alert) when a
 * submit shows it, `submit` telling them apart: each submit's summary is a new alert, read whole.
 * Once the visitor fixes one it is no longer live (`quiet`): the count left is said politely
 * instead (`problemsLeft`), not the whole summary again at every fix.
 */
export function renderErrorSummary(
  problems: readonly Problem[],
  focusControl: (event: Event, id: string) => void,
  summary: { submit: number; quiet: boolean },
): TemplateResult | typeof nothing {
  if (!problems.length) return nothing;
  const count = problems.length;
  return html`${keyed(
    summary.submit,
    html`<div part="error-summary" role=${summary.quiet ? 'group' : 'alert'} aria-labelledby="error-summary-heading">
      <h3 id="error-summary-heading" part="heading">${plural(count, { one: () => msg('There is a problem'), other: () => msg(str`There are ${count} problems`) })}</h3>
      <ul>
        ${problems.map(
          (p) => html`<li><a href="#${p.id}" @click=${(e: Event) => focusControl(e, p.id)}>${p.label}: ${p.message}</a></li>`,
        )}
      </ul>
    </div>`,
  )}`;
}

/** What is said (politely) when a fix leaves `count` problems of the summary. */
export function problemsLeft(count: number): string {
  if (count === 0) return msg('No problems left.');
  return plural(count, { one: () => msg(str`${count} problem left`), other: () => msg(str`${count} problems left`) });
}

/** The checkout notices; those the service wants confirmed are required checkboxes. */
export function renderNotices(options: CheckoutOptions, state: FormState): TemplateResult | typeof nothing {
  const notices = options.CheckoutNotices;
  if (!notices.length) return nothing;
  return html`<fieldset part="notices">
    <legend>${msg('Before you book')}</legend>
    ${notices.map((notice, index) => {
      if (!notice.RequiresCustomerConfirmation) return html`<p part="notice">${notice.Message}</p>`;
      const id = `notice-${index}`;
      const error = errorOf(state, id);
      return html`<div part="notice required field${error ? ' invalid' : ''}">
        <label class="check" for=${id}>
          <input type="checkbox" id=${id} name=${id} required .checked=${live(state.confirmed.has(index))}
            aria-invalid=${error ? 'true' : 'false'} aria-describedby=${ifDefined(error ? `${id}-error` : undefined)} />
          <span>${notice.Message}</span>
        </label>
        ${error ? html`<p id="${id}-error" part="field-error">${error}</p>` : nothing}
      </div>`;
    })}
  </fieldset>`;
}

/** The delivery choices with their prices. */
export function renderDelivery(deliveries: DeliveryType[], state: FormState): TemplateResult {
  const config = state.config;
  const error = errorOf(state, 'delivery');
  if (!deliveries.length) {
    return html`<fieldset part="delivery">
      <legend>${msg('Delivery')}</legend>
      <p role="alert" part="message error">${msg('No delivery method is available for this basket.')}</p>
    </fieldset>`;
  }
  return html`<fieldset part="delivery" aria-describedby=${ifDefined(error ? 'delivery-error' : undefined)}>
    <legend>${msg('Delivery')}</legend>
    ${deliveries.map((d) => {
      const selected = d.DeliveryTypeId === state.deliveryTypeId;
      return html`<label part="delivery-option${selected ? ' selected' : ''}" class=${selected ? 'selected' : ''}>
        <input type="radio" name="delivery" required value=${String(d.DeliveryTypeId)} .checked=${live(selected)} />
        <span>${d.DeliveryTypeName}</span>
        <span class="price">${d.DeliveryTypePrice > 0 ? formatMoney(d.DeliveryTypePrice, config) : msg('Free')}</span>
      </label>`;
    })}
    ${error ? html`<p id="delivery-error" part="field-error">${error}</p>` : nothing}
  </fieldset>`;
}

/** The customer's details: the text fields, the country, and the state for the United States. */
export function renderCustomer(options: CheckoutOptions, lists: SystemLists, state: FormState): TemplateResult {
  const isUS = state.values.country === 'US';
  return html`<fieldset part="customer">
    <legend>${msg('Your details')}</legend>
    <div class="fields">
      ${TEXT_FIELDS.map((spec) => renderTextField(spec, options, state))}
      ${renderSelect(
        state,
        'country',
        msg('Country'),
        'country',
        countryOptions(lists.countries, state.config),
        true,
      )}
      ${isUS
        ? renderSelect(
            state,
            'state',
            msg('State'),
            'address-level1',
            lists.states.map((s) => ({ value: s.StateCode, label: s.StateName })),
            true,
            msg('Choose a state'),
          )
        : nothing}
    </div>
  </fieldset>`;
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter((id): id is string => Boolean(id));
  return list.length ? list.join(' ') : undefined;
}

function renderTextField(spec: TextFieldSpec, options: CheckoutOptions, state: FormState): TemplateResult {
  const id = `field-${spec.name}`;
  const error = errorOf(state, spec.name);
  const hint =
    spec.name === 'email'
      ? options.CustomerEmailIsMandatory
        ? msg('Your tickets and booking details are sent to this address.')
        : msg('We send your booking details to this address.')
      : spec.name === 'phone'
        ? msg('In case the box office needs to reach you about this booking.')
        : null;
  return html`<div part="field${error ? ' invalid' : ''}" class=${spec.wide ? 'wide' : ''}>
    <label part="label" for=${id}>${spec.label()}${spec.required ? nothing : html` <span class="optional">${msg('(optional)')}</span>`}</label>
    <input part="input" id=${id} name=${spec.name} type=${spec.type} autocomplete=${spec.autocomplete}
      ?required=${spec.required} pattern=${ifDefined(spec.pattern)}
      inputmode=${ifDefined(spec.type === 'tel' ? 'tel' : undefined)}
      .value=${live(state.values[spec.name])}
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${ifDefined(describedBy(hint ? `${id}-hint` : false, error ? `${id}-error` : false))} />
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : nothing}
    ${error ? html`<p id="${id}-error" part="field-error">${error}</p>` : nothing}
  </div>`;
}

function renderSelect(
  state: FormState,
  name: 'country' | 'state',
  label: string,
  autocomplete: string,
  options: { value: string; label: string }[],
  required: boolean,
  placeholder?: string,
): TemplateResult {
  const id = `field-${name}`;
  const error = errorOf(state, name);
  const value = state.values[name];
  return html`<div part="field${error ? ' invalid' : ''}">
    <label part="label" for=${id}>${label}</label>
    <select part="input" id=${id} name=${name} autocomplete=${autocomplete} ?required=${required}
      aria-invalid=${error ? 'true' : 'false'} aria-describedby=${ifDefined(error ? `${id}-error` : undefined)}>
      ${placeholder ? html`<option value="" ?selected=${value === ''}>${placeholder}</option>` : nothing}
      ${options.map((o) => html`<option value=${o.value} ?selected=${o.value === value}>${o.label}</option>`)}
    </select>
    ${error ? html`<p id="${id}-error" part="field-error">${error}</p>` : nothing}
  </div>`;
}

/** Refund protection (when offered) and the confirmation e-mail choice. */
export function renderExtras(content: BasketContent, lists: SystemLists, state: FormState): TemplateResult {
  const config = state.config;
  const count = ticketCount(content);
  const price = lists.ticketPlanPrice;
  return html`<fieldset part="extras">
    <legend>${msg('Options')}</legend>
    ${price !== null
      ? html`<label class="check">
          <input type="checkbox" name="ticketPlan" .checked=${live(state.requireTicketPlan)} aria-describedby="ticket-plan-hint" />
          <span>
            ${msg(str`Add refund protection: ${formatMoney(price, config)} per ticket`)}
            <span class="hint" id="ticket-plan-hint">${protectionHint(formatMoney(price * count, config), count)}</span>
          </span>
        </label>`
      : nothing}
    <label class="check">
      <input type="checkbox" name="confirmationEmail" .checked=${live(state.sendConfirmationEmail)} />
      <span>${msg('Send me a confirmation e-mail')}</span>
    </label>
  </fieldset>`;
}

/** Tickets, delivery, refund protection and the total (announced as it changes). */
export function renderTotals(content: BasketContent, deliveries: DeliveryType[], lists: SystemLists, state: FormState): TemplateResult {
  const config = state.config;
  const delivery = deliveries.find((d) => d.DeliveryTypeId === state.deliveryTypeId) ?? null;
  const protection = protectionPrice(content, lists, state);
  return html`<dl part="totals">
    <dt>${msg('Tickets')}</dt>
    <dd>${formatMoney(subtotal(content), config)}</dd>
    <dt>${delivery ? msg(str`Delivery (${delivery.DeliveryTypeName})`) : msg('Delivery')}</dt>
    <dd>${formatMoney(delivery?.DeliveryTypePrice ?? 0, config)}</dd>
    ${protection > 0
      ? html`<dt>${msg('Refund protection')}</dt>
          <dd>${formatMoney(protection, config)}</dd>`
      : nothing}
    <dt class="grand">${msg('Total')}</dt>
    <dd class="grand" part="total" aria-live="polite" aria-atomic="true">${formatMoney(orderTotal(content, deliveries, lists, state), config)}</dd>
  </dl>`;
}

/** "£5.00 for 2 tickets": what refund protection costs for the whole basket. */
function protectionHint(price: string, count: number): string {
  return plural(count, { one: () => msg(str`${price} for ${count} ticket`), other: () => msg(str`${price} for ${count} tickets`) });
}
