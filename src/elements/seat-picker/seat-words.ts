/** How <seat-picker> names a seat, for buttons, the list, announcements and the summary. */
import { msg, str } from '../../i18n/msg.ts';
import { formatList, formatMoney, formatNumber } from '../../format.ts';
import { plural } from '../../i18n/plural.ts';
import type { BookingConfig } from '../../state/config.ts';
import type { MapSeat } from '../../state/seat-map.ts';
import type { ToggleOutcome } from '../../state/seat-selection.ts';

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

/** Money in the configured currency, cached per amount (hundreds of seat names share a few prices); a new configuration starts afresh. */
export function cachedMoney(config: () => BookingConfig): MoneyText {
  const cache = new Map<number, string>();
  let cachedFor: BookingConfig | null = null;
  return (amount) => {
    const current = config();
    if (current !== cachedFor) {
      cachedFor = current;
      cache.clear();
    }
    let text = cache.get(amount);
    if (text === undefined) {
      text = formatMoney(amount, current);
      cache.set(amount, text);
    }
    return text;
  };
}

/** The map's accessible name: how many seats, and how to move between them. */
export function mapLabel(count: number, config: BookingConfig): string {
  const shown = formatNumber(count, config);
  return plural(count, {
    one: () => msg(str`Seat map, ${shown} seat. Arrow keys move between seats; Enter or Space chooses.`),
    other: () => msg(str`Seat map, ${shown} seats. Arrow keys move between seats; Enter or Space chooses.`),
  });
}

/** What is announced when a seat was pressed: `choice` is the choice after it (its count and total). */
export function toggleSentence(outcome: ToggleOutcome, seat: MapSeat, money: MoneyText, choice: { count: number; total: number }, max: number): string {
  const n = choice.count;
  const total = money(choice.total);
  const count = () => plural(n, { one: () => msg(str`${n} seat, total ${total}.`), other: () => msg(str`${n} seats, total ${total}.`) });
  switch (outcome.kind) {
    case 'held':
      return msg(str`${shortName(seat)} is already in your basket.`);
    case 'removed':
      return `${msg(str`${shortName(seat)} removed.`)} ${count()}`;
    case 'added':
      return `${msg(str`${shortName(seat)} chosen, ${money(seat.price)}.`)} ${count()}`;
    case 'full':
      return plural(max, {
        one: () => msg(str`You can choose up to ${max} seat. Remove it to choose another.`),
        other: () => msg(str`You can choose up to ${max} seats. Remove one to choose another.`),
      });
  }
}

/** After seats were taken while the visitor chose (a 409): which, and whether the rest is kept; else the add's own message. */
export function lostSeatsNotice(lost: readonly MapSeat[], kept: number, config: BookingConfig, otherwise: string): { message: string; detail?: string } {
  if (!lost.length) return { message: otherwise };
  const names = formatList(lost.map((s) => shortName(s)), config);
  return {
    message: msg('Some seats were taken by someone else while you were choosing. The map is up to date again.'),
    detail: kept ? msg(str`No longer available: ${names}. The rest of your choice is kept.`) : msg(str`No longer available: ${names}.`),
  };
}
