/**
 * The sandbox's own pages, served without an Api-Key: the payment gateway
 * (`/sandbox/pay/{basketId}`), placeholder images (`/sandbox/images/...`),
 * e-ticket downloads (`/sandbox/etickets/...`), seating plans
 * (`/sandbox/seating-plan/{performanceId}.svg`) and the SingleItemBookLink
 * target (`/sandbox/book/{performanceId}`). No network, no external assets.
 */
import { formatServiceDateTime } from '../../api/time.ts';
import { paymentTexts, type PaymentTexts } from './payment-texts.ts';
import type { Basket, PerfRt, Store } from './store.ts';
import { basketTotal, seatNames, serviceTime, type ViewContext } from './views.ts';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #ccc}
td.num,th.num{text-align:right}.actions{display:flex;gap:1rem;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.4rem;border-radius:.3rem;border:2px solid #1a1a1a;cursor:pointer}
button[value=success]{background:#0b6b2f;color:#fff;border-color:#0b6b2f}button[value=failure]{background:#fff;color:#1a1a1a}
button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}.note{color:#444;font-size:.9rem}`;

export function htmlPage(title: string, body: string, lang = 'en'): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** Pounds in a locale (the service sells in GBP). */
export const money = (n: number, locale = 'en-GB') => new Intl.NumberFormat(locale, { style: 'currency', currency: 'GBP' }).format(n);

/** The texts of a basket's payment page: the language its order asked for (PaymentGateLanguage), else English. */
export function basketTexts(basket: Basket | null | undefined): PaymentTexts {
  return paymentTexts(basket?.order?.language);
}

/** The payment page of a basket awaiting payment, in the language the order asked for. */
export function paymentPage(ctx: ViewContext, basket: Basket): string {
  const t = basketTexts(basket);
  const pounds = (n: number) => escapeHtml(money(n, t.lang));
  const when = (instant: number) =>
    formatServiceDateTime(serviceTime(ctx, instant), { dateStyle: 'medium', timeStyle: 'short', locale: t.lang, timeZone: ctx.timeZone });
  const totals = basketTotal(ctx, basket);
  const rows = basket.items
    .map((item) => {
      const seats = item.seats.map((s) => seatNames(item.perf, s).label).join(', ');
      const subtotal = item.seats.reduce((sum, s) => sum + (ctx.store.sellingPrice(item.perf, s) ?? 0), 0);
      return `<tr><td>${escapeHtml(item.perf.event.def.Name)}<br><span class="note">${escapeHtml(when(item.perf.instant))}, ${escapeHtml(item.area.name)}: ${escapeHtml(seats)}</span></td><td class="num">${pounds(subtotal)}</td></tr>`;
    })
    .join('');
  const extra = [
    totals.delivery ? `<tr><td>${escapeHtml(t.delivery)}</td><td class="num">${pounds(totals.delivery)}</td></tr>` : '',
    totals.protection ? `<tr><td>${escapeHtml(t.refundProtection)}</td><td class="num">${pounds(totals.protection)}</td></tr>` : '',
  ].join('');
  const deadline = basket.paymentDeadline === null ? '' : when(basket.paymentDeadline);
  return htmlPage(
    t.title,
    `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.intro)}</p>` +
      `<table><caption class="note">${escapeHtml(t.basket(basket.id))}</caption><thead><tr><th scope="col">${escapeHtml(t.item)}</th><th scope="col" class="num">${escapeHtml(t.price)}</th></tr></thead>` +
      `<tbody>${rows}${extra}</tbody><tfoot><tr><th scope="row">${escapeHtml(t.amountToPay)}</th><td class="num"><strong>${pounds(totals.total)}</strong></td></tr></tfoot></table>` +
      (deadline ? `<p class="note">${escapeHtml(t.payBefore(deadline))}</p>` : '') +
      `<form method="post"><div class="actions"><button type="submit" name="outcome" value="success">${escapeHtml(t.pay(money(totals.total, t.lang)))}</button>` +
      `<button type="submit" name="outcome" value="failure">${escapeHtml(t.decline)}</button></div></form>`,
    t.lang,
  );
}

/** A page for a basket with no payment pending (in its order's language): a link back to the shop. */
export function noPaymentPage(message: string, returnUrl: string | null, t: PaymentTexts = paymentTexts(null)): string {
  const link = returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">${escapeHtml(t.returnToShop)}</a></p>` : '';
  return htmlPage(t.title, `<h1>${escapeHtml(t.title)}</h1><p role="status">${escapeHtml(message)}</p>${link}`, t.lang);
}

// ---------------------------------------------------------------- placeholder images

function hue(label: string): number {
  let h = 0;
  for (const ch of label) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/** An SVG placeholder: a colour from the label, the label and the size written on it. */
export function placeholderSvg(label: string, width: number, height: number): string {
  const text = label.replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  const h = hue(label);
  const size = Math.max(10, Math.min(width / Math.max(8, text.length * 0.6), height / 4));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(text)}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h} 55% 35%)"/><stop offset="1" stop-color="hsl(${(h + 40) % 360} 60% 20%)"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>` +
    `<text x="50%" y="50%" fill="#fff" font-family="system-ui,sans-serif" font-size="${size.toFixed(0)}" text-anchor="middle" dominant-baseline="middle">${escapeHtml(text)}</text>` +
    `<text x="50%" y="${(height - size * 0.6).toFixed(0)}" fill="#ffffffb0" font-family="system-ui,sans-serif" font-size="${(size * 0.45).toFixed(0)}" text-anchor="middle">${width}×${height}</text></svg>`;
}

// ---------------------------------------------------------------- e-tickets

/** A small, valid one-page PDF with the given lines (ASCII). */
export function tinyPdf(lines: string[]): Uint8Array<ArrayBuffer> {
  const ascii = (s: string) => s.replace(/£/g, 'GBP ').replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const content = `BT /F1 14 Tf 36 250 Td 18 TL ${lines.map((l) => `(${ascii(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 297] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

export interface TicketDetails {
  ticketId: number;
  bookingReference: string;
  event: string;
  venue: string;
  date: string;
  area: string;
  seat: string;
  barcode: string;
}

/** The booked ticket of a basket, or null. */
export function bookedTicket(ctx: ViewContext, store: Store, basket: Basket, ticketId: number): TicketDetails | null {
  if (basket.state !== 'booked') return null;
  for (const item of basket.items) {
    for (const seat of item.seats) {
      if (store.ticketId(item.perf, seat) !== ticketId) continue;
      return {
        ticketId,
        bookingReference: basket.bookingReference ?? '',
        event: item.perf.event.def.Name,
        venue: item.perf.venue.def.Name,
        date: serviceTime(ctx, item.perf.instant).replace('T', ' ').slice(0, 16),
        area: item.area.name,
        seat: seatNames(item.perf, seat).label,
        barcode: basket.barcodes.get(ticketId) ?? '',
      };
    }
  }
  return null;
}

/** The PDF of a booked ticket: served at /sandbox/etickets/…/{id}.pdf, and measured for PrintAtHomeTickets' FileSize. */
export function ticketPdf(ticket: TicketDetails): Uint8Array<ArrayBuffer> {
  return tinyPdf([ticket.event, ticket.venue, ticket.date, `${ticket.area}, seat ${ticket.seat}`, `Booking ${ticket.bookingReference}`, `Barcode ${ticket.barcode}`, 'Stagedoor sandbox: not a real ticket']);
}

// ---------------------------------------------------------------- seating plans

/**
 * A performance's seating plan (Get Seating plan's SeatingPlanUrl): the same house that FullAvailability and
 * AvailableTickets describe, drawn from the venue's areas and rows. Every seat on sale is a circle carrying its
 * TicketId and whether it is free now (`data-ticket-id`, `data-free`), with its area, row and seat as its title.
 */
export function seatingPlanSvg(store: Store, perf: PerfRt): string {
  const SEAT = 12;
  const parts: string[] = [];
  let y = 24;
  let width = 0;
  for (const area of perf.venue.areas.values()) {
    parts.push(`<g class="area" data-area-id="${area.id}"><text x="8" y="${y}" font-size="14" font-family="system-ui,sans-serif">${escapeHtml(area.name)}</text>`);
    y += 8;
    for (const row of area.rows) {
      y += SEAT;
      for (let s = row.start; s < row.end; s++) {
        if (store.sellingPrice(perf, s) === null) continue;
        const x = 16 + (s - row.start) * SEAT;
        width = Math.max(width, x + SEAT);
        const free = store.isFree(perf, s);
        const id = store.ticketId(perf, s);
        const names = seatNames(perf, s);
        parts.push(
          `<circle cx="${x}" cy="${y}" r="${SEAT / 2 - 1}" fill="${free ? '#0b6b2f' : '#bbb'}" data-ticket-id="${id}" data-free="${free}">` +
            `<title>${escapeHtml(`${area.name} ${names.name1} ${names.name2}`)}</title></circle>`,
        );
      }
    }
    parts.push('</g>');
    y += 24;
  }
  const title = `${perf.event.def.Name}, ${perf.venue.def.Name}: seating plan`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width + 16}" height="${y}" viewBox="0 0 ${width + 16} ${y}" role="img" aria-label="${escapeHtml(title)}">` +
    `<title>${escapeHtml(title)}</title>${parts.join('')}</svg>`;
}
