/** Benchmark page: seatchart (DOM seats), as its README shows. */
import Seatchart from 'seatchart';
import 'seatchart/dist/seatchart.min.css';
import { centre, install, nextPaint } from './harness.ts';
import { generateVenue } from './venue.ts';

let chart: Seatchart | null = null;

install({
  async render(size) {
    const venue = generateVenue(size);
    const half = Math.ceil(venue.rows / 2);
    const container = document.createElement('div');
    document.body.append(container);
    // Its input, made before the clock starts (as the other pages make theirs).
    const reservedSeats = venue.seats.filter((s) => !s.available).map((s) => ({ row: s.row, col: s.col }));
    const start = performance.now();
    chart = new Seatchart(container, {
      map: {
        rows: venue.rows,
        columns: venue.columns,
        seatTypes: {
          default: { label: 'Back', cssClass: 'back', price: 30 },
          front: { label: 'Front', cssClass: 'front', price: 45, seatRows: Array.from({ length: half }, (_, i) => i) },
        },
        reservedSeats,
      },
      cart: { visible: false },
    });
    await nextPaint();
    return performance.now() - start;
  },
  target() {
    const seat = [...document.querySelectorAll('.sc-seat.sc-seat-available')].find((s) => centre(s));
    return centre(seat);
  },
  selected() {
    return chart?.getCart().length ?? 0;
  },
});
