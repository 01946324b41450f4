/** Benchmark page: @alisaitteke/seatmap-canvas (d3 + SVG), as its README shows. */
import { SeatMapCanvas } from '@alisaitteke/seatmap-canvas';
import '@alisaitteke/seatmap-canvas/dist/esm/seatmap.canvas.css';
import { centre, install, nextPaint } from './harness.ts';
import { generateVenue } from './venue.ts';

interface SeatItemLike {
  isSelected?: () => boolean;
  select?: () => unknown;
  unSelect?: () => unknown;
  item?: { salable?: boolean };
}

interface SeatMapLike {
  data: { replaceData(blocks: unknown[]): unknown; getSelectedSeats(): unknown[] };
  eventManager: { addEventListener(type: string, fn: (seat: SeatItemLike) => void): void };
}

let map: SeatMapLike | null = null;
const NOT_SALABLE = '#424747';

install({
  async render(size) {
    const venue = generateVenue(size);
    const container = document.createElement('div');
    container.className = 'seats_container';
    container.style.cssText = 'width: 1200px; height: 700px;';
    document.body.append(container);
    const blocks = [
      {
        id: 'hall',
        title: 'Hall',
        color: '#e2e2e2',
        labels: [],
        seats: venue.seats.map((s) => ({ id: s.id, title: s.seatLabel, x: s.col * 30, y: s.row * 30, salable: s.available, color: s.price > 40 ? '#0b63a8' : '#a34400' })),
      },
    ];
    const start = performance.now();
    const instance = new SeatMapCanvas('.seats_container', {
      resizable: true,
      legend: true,
      style: {
        seat: { radius: 12, color: '#6796ff', hover: '#5671ff', not_salable: NOT_SALABLE, selected: '#56aa45', focus: '#435fa4', focus_out: '#56aa45' },
        block: { fill: '#e2e2e2', stroke: '#e2e2e2' },
        label: { color: '#000', radius: 12, 'font-size': '12px', bg: '#ffffff' },
        legend: {},
        tooltip: {},
      },
    }) as unknown as NonNullable<typeof map>;
    map = instance;
    // The README's seatmap.addEventListener is an unbound copy of the event manager's method
    // in this version (it throws); the event manager itself works.
    instance.eventManager.addEventListener('SEAT.CLICK', (seat) => {
      if (seat.isSelected?.()) seat.unSelect?.();
      else if (seat.item?.salable !== false) seat.select?.();
    });
    instance.data.replaceData(blocks);
    await nextPaint();
    return performance.now() - start;
  },
  target() {
    // Seats are g.seat inside g.seats (the legend uses other groups); unavailable ones are filled with not_salable.
    const seats = [...document.querySelectorAll('.seats_container g.seats > g.seat')];
    // ...and the one clicked must be the one hit (the legend overlaps the top of the map).
    const hit = (s: Element) => {
      const c = centre(s);
      return c !== null && s.contains(document.elementFromPoint(c.x, c.y));
    };
    return centre(seats.find((s) => s.querySelector('circle')?.getAttribute('fill') !== NOT_SALABLE && hit(s)));
  },
  selected() {
    return map?.data.getSelectedSeats().length ?? 0;
  },
  prepareClick() {
    // Below its seat zoom level a click zooms in (animated) where it lands; seats are chosen at seat level.
    return centre(document.querySelector('.seats_container g.block'));
  },
});
