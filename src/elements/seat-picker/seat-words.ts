/** How <seat-picker> names a seat, for buttons, the list, announcements and the summary. */
import { msg, str } from '../../i18n/msg.ts';
import { plural } from '../../i18n/plural.ts';
import type { MapSeat } from '../../state/seat-map.ts';

/** An amount as money text in the configured currency. */
export type MoneyText = (amount: number) => string;

/** "restricted view (pillar)", or "" for a seat with a clear view. */
export function restriction(seat: Pick<MapSeat, 'restricted' | 'description'>): string {
  if (!seat.restricted) return '';
  return seat.description ? msg(str`restricted view (${seat.description})`) : msg('restricted view');
}

/** "Dress Circle, row C, seat 14, £62.50, restricted view (pillar)". */
export function seatName(seat: MapSeat, money: MoneyText, held = false): string {
  const parts = [msg(str`${seat.area}, row ${seat.row}, seat ${seat.seat}, ${money(seat.price)}`)];
  const r = restriction(seat);
  if (r) parts.push(r);
  if (held) parts.push(msg('in your basket'));
  return parts.join(', ');
}

/** "Dress Circle row C seat 14". */
export function shortName(seat: MapSeat): string {
  return msg(str`${seat.area} row ${seat.row} seat ${seat.seat}`);
}

/** "Row C (24 seats)", in the list path's row select. */
export function rowOption(label: string, count: number): string {
  return plural(count, { one: () => msg(str`Row ${label} (${count} seat)`), other: () => msg(str`Row ${label} (${count} seats)`) });
}

/** "Add 2 seats to basket". */
export function addSeatsLabel(n: number): string {
  return plural(n, { one: () => msg(str`Add ${n} seat to basket`), other: () => msg(str`Add ${n} seats to basket`) });
}
