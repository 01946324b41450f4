/**
 * The upstream headers the proxy passes on, only when their values have their
 * expected shape, and then as the proxy writes them: `Date` (an HTTP-date, in
 * any of its three forms, written as an IMF-fixdate) and `Retry-After` (a
 * number of seconds, or an HTTP-date written the same way). Anything else an
 * upstream puts there (a word, an echoed Api-Key, a comment after the date) is
 * dropped: the proxy's own clock dates the answer, and it carries no
 * Retry-After. Edge-safe.
 */

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const WEEKDAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '[0-2]\\d:[0-5]\\d:[0-6]\\d';
/** RFC 9110 §5.6.7: IMF-fixdate, then the obsolete RFC 850 and asctime forms (the last in GMT, though it says no zone). */
const IMF_FIXDATE = new RegExp(`^${DAY}, [0-3]\\d ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${WEEKDAY}, [0-3]\\d-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ 1-3]\\d ${TIME} \\d{4}$`);

/** The last Date read and what it became: answers within one second all carry the same. */
let lastDate = '';
let lastWritten: string | null = null;

/** An HTTP-date, written as an IMF-fixdate; null when the value is not one. */
export function httpDate(value: string | null): string | null {
  if (value === null) return null;
  if (value === lastDate) return lastWritten;
  const text = value.trim();
  const time = IMF_FIXDATE.test(text) || RFC_850.test(text) ? Date.parse(text) : ASCTIME.test(text) ? Date.parse(`${text} GMT`) : Number.NaN;
  lastDate = value;
  lastWritten = Number.isFinite(time) ? new Date(time).toUTCString() : null;
  return lastWritten;
}

/** A Retry-After: whole seconds as they are, an HTTP-date as an IMF-fixdate; null when it is neither. */
export function retryAfter(value: string | null): string | null {
  if (value === null) return null;
  const text = value.trim();
  return /^\d{1,9}$/.test(text) ? text : httpDate(text);
}
