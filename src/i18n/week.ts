/** The first day of the week in a locale (the calendar's first column). */

/** Territories whose week starts on Sunday (CLDR weekData), for browsers without Intl.Locale week info. */
const SUNDAY_FIRST = new Set('AGASBDBRBSBTBWBZCACNCODMDOETGTGUHKHNIDILINJMJPKEKHKRLAMHMMMOMTMXMZNINPPAPEPHPKPRPTPYSASGSVTHTTTWUMUSVEVIWSYEZAZW'.match(/../g));

/** The first day of the week for a locale, 1 = Monday … 7 = Sunday (Monday when nothing says otherwise). */
export function firstDayOfWeek(locale: string): number {
  try {
    const info = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const first = info.getWeekInfo?.().firstDay ?? info.weekInfo?.firstDay;
    if (typeof first === 'number' && first >= 1 && first <= 7) return first;
    const region = info.maximize().region;
    return region && SUNDAY_FIRST.has(region) ? 7 : 1;
  } catch {
    return 1;
  }
}
