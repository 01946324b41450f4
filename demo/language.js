// The demo theatre's language menu: the widget's language is the <booking-provider>'s `locale`,
// switched at run time (every element re-renders in it, and SubmitOrder asks the payment page
// for it). `?lang=de` opens the page in that language. The page's own text stays English.
const provider = document.querySelector('booking-provider');
const menu = document.getElementById('language');
const wanted = new URLSearchParams(location.search).get('lang');

function choose(locale) {
  provider?.setAttribute('locale', locale);
  if (menu) menu.value = locale;
}

if (wanted) choose(wanted);
menu?.addEventListener('change', () => {
  choose(menu.value);
  const url = new URL(location.href);
  url.searchParams.set('lang', menu.value);
  history.replaceState(history.state, '', url); // its state kept: the widget marks its own entries there
});
