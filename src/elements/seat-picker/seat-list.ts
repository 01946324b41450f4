/**
 * The "choose from a list" path of <seat-picker>, once opened: area, then row,
 * then one checkbox per seat sharing the selection with the map; the seat the
 * service refused (InvalidSeatID) marked with its message. Part of the later
 * part (seat-picker.later.ts): the map's first paint does not carry it.
 */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, type TemplateResult } from 'lit';
import type { SeatMap } from '../../state/seat-map.ts';
import { restriction, rowOption, type MoneyText } from './seat-words.ts';

export interface ListView {
  area: number;
  row: number;
  selected: ReadonlySet<number>;
  held: ReadonlySet<number>;
  /** The seat the service refused, and its message; or null. */
  invalid: { seat: number; message: string } | null;
  money: MoneyText;
  onArea: (e: Event) => void;
  onRow: (e: Event) => void;
  onToggle: (seat: number) => void;
}

export function renderListBody(map: SeatMap, view: ListView): TemplateResult | typeof nothing {
  const area = map.areas[view.area] ?? map.areas[0];
  const rowIndex = area?.rows[view.row] ?? area?.rows[0];
  const row = rowIndex === undefined ? undefined : map.rows[rowIndex];
  if (!area || !row) return nothing;
  return html`<div class="list-body">
    <div class="list-pickers">
      <label
        >${msg('Area')}
        <select @change=${view.onArea}>
          ${map.areas.map((a, i) => html`<option value=${i} ?selected=${a === area}>${a.name}</option>`)}
        </select>
      </label>
      <label
        >${msg('Row')}
        <select @change=${view.onRow}>
          ${area.rows.map((r, i) => {
            const rr = map.rows[r];
            return rr ? html`<option value=${i} ?selected=${r === rowIndex}>${rowOption(rr.label, rr.seats.length)}</option>` : nothing;
          })}
        </select>
      </label>
    </div>
    <fieldset>
      <legend>${msg(str`Seats in ${area.name}, row ${row.label}`)}</legend>
      <div class="seat-checks">
        ${row.seats.map((i) => {
          const seat = map.seats[i];
          if (!seat) return nothing;
          const held = view.held.has(i);
          const extra = [view.money(seat.price), restriction(seat), held ? msg('in your basket') : ''].filter(Boolean).join(', ');
          const invalid = view.invalid?.seat === i ? view.invalid : null;
          return html`<label class=${invalid ? 'invalid' : ''} part=${invalid ? 'list-seat invalid' : 'list-seat'}
            ><input
              type="checkbox"
              .checked=${view.selected.has(i)}
              ?disabled=${held}
              aria-invalid=${invalid ? 'true' : nothing}
              aria-describedby=${invalid ? `invalid-${i}` : nothing}
              @change=${() => view.onToggle(i)}
            />${msg(str`Seat ${seat.seat}`)}, ${extra}${invalid
              ? html`<span class="invalid-note" id=${`invalid-${i}`}>${msg(str`Cannot be chosen: ${invalid.message}`)}</span>`
              : nothing}</label
          >`;
        })}
      </div>
    </fieldset>
  </div>`;
}
