/**
 * The visitor's language: which locale a page gets (configuration, then the
 * page's lang, then English; falling back by language, never an error), the
 * locale Intl formats with, plural forms by each language's rules, the
 * calendar's week start, and changing `locale` at run time.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { ServerClock } from '../../src/api/time.ts';
import '../../src/elements/basket-timer/basket-timer.ts';
import type { BasketTimer } from '../../src/elements/basket-timer/basket-timer.ts';
import '../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../src/elements/event-list/event-list.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import '../../src/elements/performance-calendar/performance-calendar.ts';
import type { PerformanceCalendar } from '../../src/elements/performance-calendar/performance-calendar.ts';
import type { BookingProvider } from '../../src/elements/booking-provider/booking-provider.component.ts';
import { formatDateTime, formatList, formatMoney } from '../../src/format.ts';
import { activeTextLocale, intlLocale, localeLoading, servedLocale, setLocale, textLocaleFor } from '../../src/i18n/locale.ts';
import { firstDayOfWeek } from '../../src/i18n/week.ts';
import { plural } from '../../src/i18n/plural.ts';
import { createBooking, registerSharedBooking, resetSharedBookings } from '../../src/state/booking.ts';
import { resetPageConfig, resolveConfig } from '../../src/state/config.ts';
import { eventFixture, performanceFixture } from './helpers/catalogue-fixtures.ts';
import { checkoutApi, COUNTRIES } from './helpers/checkout-data.ts';
import { fakeApi, testBooking, withBooking, type Handlers } from './helpers/fake-api.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const sr = (el: Element) => el.shadowRoot as ShadowRoot;
const text = (n: Element | ShadowRoot | null | undefined) => (n?.textContent ?? '').replace(/\s+/g, ' ').trim();

const EVENTS = [eventFixture(1, { Name: 'Wicked', EventMinimumPrice: 100 }), eventFixture(2, { Name: 'Hamlet', EventMinimumPrice: 25 })];

function handlers(): Handlers {
  return {
    getEvents: () => ({ Events: EVENTS }),
    getEventPerformances: ({ eventId }) => ({ EventId: eventId, Performances: [performanceFixture(101, '2026-12-08T19:30:00')] }),
    getPreliminaryBookingInfo: () => ({ Performances: [] }),
  };
}

function api() {
  return fakeApi(handlers(), { clock: new ServerClock(() => NOW) });
}

async function listLoaded(el: EventList) {
  await waitUntil(() => sr(el).querySelectorAll('[part~="card-button"]').length === EVENTS.length, 'the list did not load');
  await el.updateComplete;
}

describe('the visitor\'s language', () => {
  const pageLang = document.documentElement.lang;

  afterEach(async () => {
    document.documentElement.lang = pageLang;
    resetPageConfig();
    resetSharedBookings();
    await setLocale('en');
  });

  describe('which locale', () => {
    it('falls back by language, then to English, and never throws', () => {
      expect(textLocaleFor('de')).to.equal('de');
      expect(textLocaleFor('de-AT')).to.equal('de');
      expect(textLocaleFor('de_ch')).to.equal('de');
      expect(textLocaleFor('fr-CA')).to.equal('fr');
      expect(textLocaleFor('nb-NO')).to.equal('nb');
      expect(textLocaleFor('no')).to.equal('nb');
      expect(textLocaleFor('nn-NO')).to.equal('nb');
      expect(textLocaleFor('sv-FI')).to.equal('sv');
      expect(textLocaleFor('en-US')).to.equal('en');
      for (const nothingWeHave of ['pt-BR', 'pl', 'zh-Hant-TW', 'x', '', 'not a tag!', '--', null, undefined]) {
        expect(textLocaleFor(nothingWeHave), String(nothingWeHave)).to.equal('en');
      }
    });

    it('keeps a regional locale of a language it speaks for dates and money, and serves British English otherwise', () => {
      expect(servedLocale('de_at')).to.equal('de-AT');
      expect(servedLocale('EN-us')).to.equal('en-US');
      expect(servedLocale('da')).to.equal('da');
      expect(servedLocale('pl-PL')).to.equal('en-GB');
      expect(servedLocale('not a tag!')).to.equal('en-GB');
      expect(servedLocale('')).to.equal('en-GB');
    });

    it('takes the configured locale, else the page lang, else English', () => {
      document.documentElement.lang = 'fr-CA';
      expect(resolveConfig().locale).to.equal('fr-CA');
      expect(resolveConfig({ locale: 'da' }).locale).to.equal('da');
      document.documentElement.lang = '';
      expect(resolveConfig().locale).to.equal('en-GB');
      document.documentElement.lang = 'pl';
      expect(resolveConfig().locale).to.equal('en-GB');
    });

    it('reads the page lang when no locale is configured: a Swedish page gets a Swedish widget', async () => {
      document.documentElement.lang = 'sv-SE';
      const el = await withBooking<EventList>(testBooking(api()), html`<event-list></event-list>`);
      await listLoaded(el);
      expect(activeTextLocale()).to.equal('sv');
      expect(text(sr(el).querySelector('[part="status"]'))).to.equal('2 föreställningar');
      expect(el.getAttribute('lang')).to.equal('sv-SE');
    });

    it('shows an unsupported locale in English with British money, and a supported region with its own conventions', async () => {
      const polish = await withBooking<EventList>(testBooking(api(), { locale: 'pl-PL' }), html`<event-list></event-list>`);
      await listLoaded(polish);
      expect(text(sr(polish).querySelector('[part="price"]'))).to.equal('From £100.00');
      expect(polish.getAttribute('lang')).to.equal('en-GB');

      const austrian = await withBooking<EventList>(testBooking(api(), { locale: 'de-AT' }), html`<event-list></event-list>`);
      await listLoaded(austrian);
      expect(text(sr(austrian).querySelector('[part="price"]'))).to.equal('Ab £ 100,00');
      expect(austrian.getAttribute('lang')).to.equal('de-AT');
    });
  });

  describe('Intl in the language of the text', () => {
    it('formats dates, times and money the way a German visitor reads them', async () => {
      await setLocale('de');
      const config = { locale: 'de', currency: 'GBP', timeZone: 'Europe/London' };
      const long = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' } as const;
      expect(formatDateTime('2026-11-24T19:30:00', config, long)).to.equal('Di., 24. Nov. 2026, 19:30');
      expect(formatMoney(100, config).replace(/\s/g, ' ')).to.equal('100,00 £');
      expect(formatList(['A1', 'A2', 'A3'], config)).to.equal('A1, A2 und A3');
    });

    it('follows the language on the page when a configured locale disagrees with it, so words and numbers never mix', async () => {
      await setLocale('fr');
      expect(intlLocale('en-GB')).to.equal('fr');
      expect(intlLocale('fr-CH')).to.equal('fr-CH');
      await setLocale('en');
      expect(intlLocale('de')).to.equal('en-GB');
      expect(intlLocale('en-US')).to.equal('en-US');
    });

    it('chooses plural forms by each language\'s rules', async () => {
      const forms = { one: () => 'one', many: () => 'many', other: () => 'other' };
      const pick = (n: number) => plural(n, forms);
      expect([0, 1, 2].map(pick)).to.deep.equal(['other', 'one', 'other']);
      await setLocale('fr');
      expect([0, 1, 2, 1_000_000].map(pick)).to.deep.equal(['one', 'one', 'other', 'many']);
      // A language's category the source has no form for takes "other".
      expect(plural(1_000_000, { one: () => 'one', other: () => 'other' })).to.equal('other');
      await setLocale('de');
      expect([0, 1, 2].map(pick)).to.deep.equal(['other', 'one', 'other']);
    });

    it('starts the week where the locale does: Monday in Europe, Sunday in the United States', async () => {
      expect(firstDayOfWeek('de')).to.equal(1);
      expect(firstDayOfWeek('en-GB')).to.equal(1);
      expect(firstDayOfWeek('en-US')).to.equal(7);
      const headers = async (locale: string) => {
        const booking = testBooking(api(), { locale });
        const el = await withBooking<PerformanceCalendar>(booking, html`<performance-calendar event-id="1" month="2026-12"></performance-calendar>`);
        await waitUntil(() => sr(el).querySelectorAll('[part~="has-performances"]').length > 0, 'the calendar did not load');
        return [...sr(el).querySelectorAll('th')].map((th) => th.getAttribute('abbr'));
      };
      expect((await headers('en-US'))[0]).to.equal('Sunday');
      expect(await headers('de')).to.deep.equal(['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag']);
    });
  });

  describe('the checkout', () => {
    async function countryFor(locale: string): Promise<string> {
      const api = checkoutApi({ getCountries: () => ({ Countries: [...COUNTRIES, { CountryId: 752, CountryName: 'Sweden', Ordering: 4, ISO3166: 'SE' }] }) });
      const booking = testBooking(api, { locale });
      await booking.basket.add({ Tickets: [1001] });
      const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
      await waitUntil(() => sr(el).querySelector('select[name="country"]'), 'the checkout did not load');
      await el.updateComplete;
      return (sr(el).querySelector('select[name="country"]') as HTMLSelectElement).value;
    }

    it("preselects the visitor's country: the locale's region, else the likeliest for its language", async () => {
      expect(await countryFor('de-AT')).to.equal('AT');
      expect(await countryFor('sv')).to.equal('SE');
      expect(await countryFor('en-US')).to.equal('US');
      expect(await countryFor('en-GB')).to.equal('GB');
      // A language whose country is not on the list: the list's first (by the service's Ordering).
      expect(await countryFor('da')).to.equal('GB');
    });

    it("names the countries in the visitor's language and sorts them as that language does; the value stays the service's code", async () => {
      const countries = [
        ...COUNTRIES,
        { CountryId: 276, CountryName: 'Germany', Ordering: 4, ISO3166: 'DE' },
        { CountryId: 900, CountryName: 'Freedonia', Ordering: 5, ISO3166: 'AA' }, // a code Intl has no name for
      ];
      const optionsFor = async (locale: string) => {
        await setLocale(locale);
        const api = checkoutApi({ getCountries: () => ({ Countries: countries }) });
        const booking = testBooking(api, { locale });
        await booking.basket.add({ Tickets: [1001] });
        const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
        await waitUntil(() => sr(el).querySelector('select[name="country"]'), 'the checkout did not load');
        await el.updateComplete;
        const select = sr(el).querySelector('select[name="country"]') as HTMLSelectElement;
        return { options: [...select.options].map((o) => [o.value, text(o)]), value: select.value };
      };
      const german = await optionsFor('de');
      // Ö sorts with O in German (not after Z, as by code point); the unknown code keeps the service's name.
      expect(german.options).to.deep.equal([['DE', 'Deutschland'], ['AA', 'Freedonia'], ['AT', 'Österreich'], ['US', 'Vereinigte Staaten'], ['GB', 'Vereinigtes Königreich']]);
      expect(german.value).to.equal('DE');
      const french = await optionsFor('fr');
      // É sorts with E in French.
      expect(french.options).to.deep.equal([['DE', 'Allemagne'], ['AT', 'Autriche'], ['US', 'États-Unis'], ['AA', 'Freedonia'], ['GB', 'Royaume-Uni']]);
    });

    it('sends the PaymentGateLanguage of the language the visitor reads, English when the page is in one the gate lacks', async () => {
      const languageFor = async (locale: string) => {
        const api = checkoutApi();
        const booking = testBooking(api, { locale });
        await booking.basket.add({ Tickets: [1001] });
        const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
        el.navigate = () => undefined;
        await waitUntil(() => sr(el).querySelector('form [part~="submit-button"]'));
        const fill = (name: string, value: string) => {
          const control = sr(el).querySelector(`[name="${name}"]`) as HTMLInputElement;
          control.value = value;
          control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        };
        fill('firstName', 'Ada');
        fill('lastName', 'Lovelace');
        fill('email', 'ada@example.com');
        (sr(el).querySelector('input[name="notice-1"]') as HTMLInputElement).click();
        await el.updateComplete;
        (sr(el).querySelector('[part~="submit-button"]') as HTMLButtonElement).click();
        await waitUntil(() => api.callsTo('submitOrder').length === 1, 'no order was sent');
        return (api.callsTo('submitOrder')[0] as { body: { PaymentGateLanguage: number } }).body.PaymentGateLanguage;
      };
      const expected: [string, number][] = [['en-GB', 1], ['de-AT', 2], ['es', 3], ['it', 4], ['sv-FI', 5], ['fr-CA', 6], ['nl-BE', 7], ['no', 8], ['da', 9], ['pl', 1]];
      for (const [locale, language] of expected) expect(await languageFor(locale), locale).to.equal(language);
    });
  });

  describe('changing locale at run time', () => {
    it('re-renders every element in the new language: inside the provider and elsewhere on the page', async () => {
      const fake = api();
      const page = testBooking(fake, { locale: 'de' });
      const provider = (await withBooking<EventList>(page, html`<event-list></event-list>`)).parentElement as BookingProvider;
      const list = provider.firstElementChild as EventList;
      // A second widget elsewhere on the page (its own endpoint) and a timer with no provider at all.
      const elsewhere = createBooking(resolveConfig({ endpoint: '/elsewhere', locale: 'de' }), { api: fake, restore: false });
      registerSharedBooking(elsewhere);
      const calendar = document.createElement('performance-calendar') as PerformanceCalendar;
      calendar.setAttribute('endpoint', '/elsewhere');
      calendar.setAttribute('event-id', '1');
      calendar.setAttribute('month', '2026-12');
      const timer = document.createElement('basket-timer') as BasketTimer;
      timer.setAttribute('endpoint', '/elsewhere');
      timer.setAttribute('empty-text', 'Empty');
      document.body.append(calendar, timer);
      await listLoaded(list);
      await waitUntil(() => sr(calendar).querySelectorAll('[part~="has-performances"]').length > 0);
      expect(text(sr(list).querySelector('[part="price"]')).replace(/\s/g, ' ')).to.equal('Ab 100,00 £');
      expect(text(sr(calendar).querySelector('[part="month-heading"]'))).to.equal('Dezember 2026');

      // The provider is no longer given a booking: it builds one from its attributes.
      provider.booking = undefined;
      provider.setAttribute('endpoint', page.config.endpoint);
      provider.setAttribute('locale', 'fr');
      await waitUntil(() => activeTextLocale() === 'fr', 'French did not load');
      await list.updateComplete;
      await calendar.updateComplete;
      await waitUntil(() => text(sr(list).querySelector('[part="price"]')).startsWith('À partir de'), 'the list stayed German');
      expect(text(sr(list).querySelector('[part="price"]')).replace(/\s/g, ' ')).to.equal('À partir de 100,00 £GB');
      expect(text(sr(list).querySelector('[part="status"]'))).to.equal('2 spectacles');
      expect(list.getAttribute('lang')).to.equal('fr');
      // The calendar's widget was configured German; the page is French now, and so is it, dates included.
      expect(text(sr(calendar).querySelector('[part="month-heading"]'))).to.equal('décembre 2026');
      expect(text(sr(calendar).querySelector('[part="status"]'))).to.equal('décembre 2026 : 1 représentation');
      expect(sr(calendar).querySelector('th')?.getAttribute('abbr')).to.equal('lundi');
      expect(calendar.getAttribute('lang')).to.equal('fr');

      provider.setAttribute('locale', 'en-GB');
      await waitUntil(() => activeTextLocale() === 'en');
      await waitUntil(() => text(sr(list).querySelector('[part="price"]')) === 'From £100.00', 'the list stayed French');
      await waitUntil(() => text(sr(calendar).querySelector('[part="month-heading"]')) === 'December 2026', 'the calendar stayed French');
      calendar.remove();
      timer.remove();
    });

    it("follows the page's lang when the page switches language (a single-page site's language menu)", async () => {
      document.documentElement.lang = 'de';
      const el = await withBooking<EventList>(testBooking(api()), html`<event-list></event-list>`);
      await listLoaded(el);
      expect(text(sr(el).querySelector('[part="status"]'))).to.equal('2 Veranstaltungen');
      document.documentElement.lang = 'it';
      await waitUntil(() => text(sr(el).querySelector('[part="status"]')) === '2 spettacoli', 'the widget did not follow the page to Italian');
      expect(text(sr(el).querySelector('[part="price"]')).replace(/\s/g, ' ')).to.equal('Da 100,00 £');
      expect(el.getAttribute('lang')).to.equal('it');
    });

    it('keeps a configured locale when the page changes its lang', async () => {
      document.documentElement.lang = 'en-GB';
      const el = await withBooking<EventList>(testBooking(api(), { locale: 'nl' }), html`<event-list></event-list>`);
      await listLoaded(el);
      expect(text(sr(el).querySelector('[part="status"]'))).to.equal('2 voorstellingen');
      document.documentElement.lang = 'fr';
      // The lang observer runs as a microtask: after it, a switch would already be loading.
      for (let i = 0; i < 3; i++) await Promise.resolve();
      expect(localeLoading(), 'a language load was started').to.equal(null);
      await el.updateComplete;
      expect(activeTextLocale()).to.equal('nl');
      expect(text(sr(el).querySelector('[part="status"]'))).to.equal('2 voorstellingen');
    });

    it('renders a German page in German at once: no English render comes first', async () => {
      const booking = testBooking(api(), { locale: 'de' });
      const seen: string[] = [];
      const el = document.createElement('event-list') as EventList;
      const provider = document.createElement('booking-provider') as BookingProvider;
      provider.booking = booking;
      provider.append(el);
      const observer = new MutationObserver(() => {
        const status = text(sr(el)?.querySelector('[part="status"]'));
        if (status) seen.push(status);
      });
      document.body.append(provider);
      observer.observe(el.shadowRoot as ShadowRoot, { subtree: true, characterData: true, childList: true });
      await listLoaded(el);
      observer.disconnect();
      expect(seen.length).to.be.greaterThan(0);
      expect(seen.filter((s) => /show/i.test(s)), seen.join(' | ')).to.deep.equal([]);
      expect(seen.at(-1)).to.equal('2 Veranstaltungen');
      provider.remove();
    });
  });
});
