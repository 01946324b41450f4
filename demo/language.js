// The demo theatre's language menu: the widget's language is the <booking-provider>'s `locale`,
// switched at run time (every element re-renders in it, and SubmitOrder asks the payment page
// for it). `?lang=de` opens the page in that language. The page's own text stays English.
const provider = document.querySelector('booking-provider');
const menu = document.getElementById('language');
const wanted = new URLSearchParams(location.search).get('lang');

function choose(locale) {
  provider?.setAttribute('locale', locale);
  if (!menu) return;
  // The menu shows the language asked for: its own entry, else the one of its language (`?lang=en` is English).
  const options = [...menu.options];
  const shown = options.find((o) => o.value === locale) ?? options.find((o) => o.lang === locale.split('-')[0].toLowerCase());
  if (shown) menu.value = shown.value;
}

if (wanted) choose(wanted);
menu?.addEventListener('change', () => {
  choose(menu.value);
  const url = new URL(location.href);
  url.searchParams.set('lang', menu.value);
  history.replaceState(history.state, '', url); // its state kept: the widget marks its own entries there
});
