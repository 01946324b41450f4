/**
 * What the waiting view says (waiting-view.ts): the estimated wait as an honest range in words,
 * the countdown to the on-sale, the sentence announced when where the visitor stands changes
 * meaningfully, and the page's title.
 */
import { durationInWords, formatCountdown } from '../../controllers/countdown-controller.ts';
import { msg, str } from '../../i18n/msg.ts';
import { intlLocale } from '../../i18n/locale.ts';
import { formatNumber } from '../../format.ts';
import type { BookingConfig } from '../../state/config.ts';
import type { QueueState } from '../../state/waiting-room.ts';

type Config = Pick<BookingConfig, 'locale'>;

/**
 * The on-sale instant in the venue's zone and the visitor's language ("1 Dec 2026, 10:00"). An
 * instant from the proxy (ISO with its offset, read with Date.parse), not a service DateTime: Intl
 * formats it in the zone directly.
 */
export function openingTime(instant: number, config: Pick<BookingConfig, 'locale' | 'timeZone'>): string {
  return new Intl.DateTimeFormat(intlLocale(config.locale), { dateStyle: 'medium', timeStyle: 'short', timeZone: config.timeZone }).format(instant);
}

/** `formatRange` (every browser we support has it; the TypeScript lib we build against does not name it). */
type RangeFormat = Intl.NumberFormat & { formatRange?: (low: number, high: number) => string };

/**
 * The room's estimate (`{ low, high }` seconds) in words: "less than a minute", "4 minutes",
 * "3–5 minutes", "1–2 hours". Rounded outwards (never a shorter wait than the room's low, nor a
 * longer than its high rounds to), so the range stays honest. Null: not known.
 */
export function waitWords(wait: QueueState['waitSeconds'], config: Config): string {
  if (!wait) return msg('Not known yet');
  const high = Math.max(0, wait.high);
  const low = Math.min(Math.max(0, wait.low), high);
  if (high < 60) return msg('Less than a minute');
  const unit = high < 90 * 60 ? 'minute' : 'hour';
  const size = unit === 'minute' ? 60 : 3600;
  const from = Math.max(1, Math.floor(low / size));
  const to = Math.max(from, Math.ceil(high / size));
  const format: RangeFormat = new Intl.NumberFormat(intlLocale(config.locale), { style: 'unit', unit, unitDisplay: 'long' });
  if (from === to) return format.format(from);
  return format.formatRange ? format.formatRange(from, to) : `${format.format(from)}–${format.format(to)}`;
}

/** The countdown's digits: `m:ss`, or `h:mm:ss` from an hour. */
export function countdownDigits(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return formatCountdown(s);
  const rest = formatCountdown(s % 3600).padStart(5, '0');
  return `${Math.floor(s / 3600)}:${rest}`;
}

/** The countdown in words, for assistive technology. */
export function countdownWords(seconds: number, config: Config): string {
  return durationInWords(seconds, intlLocale(config.locale));
}

/** How near the on-sale is, in steps worth telling: more than 10 minutes, 10, 5, 1, open. */
function openingStep(secondsLeft: number): number {
  return [0, 60, 300, 600].find((step) => secondsLeft <= step) ?? Infinity;
}

/**
 * The sentence the live region speaks, and what must change before it speaks again: the status,
 * the wait's words while waiting, the step of the countdown before the on-sale. A poll that moves
 * the visitor forward without changing any of these says nothing.
 */
export function queueAnnouncement(state: QueueState, secondsToOpen: number, config: Config): { key: string; text: string } {
  const number = (n: number) => formatNumber(n, config);
  switch (state.status) {
    case 'before': {
      const step = openingStep(secondsToOpen);
      const text = step === 0
        ? msg('The sale is opening. Your place in the queue is on its way.')
        : msg(str`You are in the waiting room. The sale opens in ${countdownWords(secondsToOpen, config)}.`);
      return { key: `before|${step}`, text };
    }
    case 'waiting': {
      const wait = waitWords(state.waitSeconds, config);
      const text = state.position === null
        ? msg('You are in the queue.')
        : msg(str`You are number ${number(state.position)} in the queue. Estimated wait: ${wait}.`);
      return { key: `waiting|${wait}`, text };
    }
    case 'paused':
      return { key: 'paused', text: msg('The sale is paused. Your place in the queue is kept.') };
    case 'catching-up':
      return { key: 'catching-up', text: msg('The waiting room is catching up. Your place in the queue is kept.') };
    case 'offline':
      return { key: 'offline', text: msg('The waiting room cannot be reached just now. Trying again; your place in the queue is kept.') };
    case 'admitted':
    case 'closed':
      return { key: state.status, text: '' };
    default:
      return { key: 'joining', text: msg('Joining the waiting room…') };
  }
}

/** The page's title while the visitor waits: their place first, so a tab in the background shows it. */
export function queueTitle(state: QueueState, pageTitle: string, config: Config): string {
  const prefix = state.status === 'waiting' && state.position !== null
    ? msg(str`Place ${formatNumber(state.position, config)} in the queue`)
    : msg('Waiting room');
  return pageTitle ? `${prefix} – ${pageTitle}` : prefix;
}
