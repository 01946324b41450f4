import { expect } from '@open-wc/testing';
import { Language } from '../../src/api/types.ts';
import { paymentGateLanguage, returnUrls, withReturnMarker } from '../../src/state/payment-return.ts';
import { returnMarker } from '../../src/state/return-page.ts';

describe('payment return URLs and language', () => {
  it('marks the current page, keeping its other query parameters and dropping the fragment', () => {
    const url = new URL(withReturnMarker('success', 'https://theatre.example/whats-on?show=12&lang=de#tickets'));
    expect(url.pathname).to.equal('/whats-on');
    expect(url.searchParams.get('show')).to.equal('12');
    expect(url.searchParams.get('lang')).to.equal('de');
    expect(url.searchParams.get('stagedoor')).to.equal('success');
    expect(url.hash).to.equal('');
    // A page that already carries a marker (a second attempt after a failure) gets the new one, once.
    const again = new URL(withReturnMarker('failure', url.href));
    expect(again.searchParams.getAll('stagedoor')).to.deep.equal(['failure']);
  });

  it('reads the marker, and nothing else', () => {
    expect(returnMarker('https://t.example/?stagedoor=success')).to.equal('success');
    expect(returnMarker('https://t.example/?a=1&stagedoor=failure')).to.equal('failure');
    expect(returnMarker('https://t.example/?stagedoor=maybe')).to.equal(null);
    expect(returnMarker('https://t.example/')).to.equal(null);
    expect(returnMarker('not a url')).to.equal(null);
  });

  it('uses configured return URLs, made absolute against the page', () => {
    const urls = returnUrls({ successUrl: '/thanks', failureUrl: null }, 'https://t.example/book?x=1');
    expect(urls.success).to.equal('https://t.example/thanks');
    expect(urls.failure).to.equal('https://t.example/book?x=1&stagedoor=failure');
  });

  it('maps the locale to the payment gate language, English when the gate has none', () => {
    expect(paymentGateLanguage('de-AT')).to.equal(Language.German);
    expect(paymentGateLanguage('fr')).to.equal(Language.French);
    expect(paymentGateLanguage('nb-NO')).to.equal(Language.Norwegian);
    expect(paymentGateLanguage('sv_SE')).to.equal(Language.Swedish);
    expect(paymentGateLanguage('en-GB')).to.equal(Language.English);
    expect(paymentGateLanguage('ja-JP')).to.equal(Language.English);
    expect(paymentGateLanguage('')).to.equal(Language.English);
  });
});
