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

let map: { data: { replaceData(blocks: unknown[]): unknown; getSelectedSeats(): unknown[] }; addEventListener(type: string, fn: (seat: SeatItemLike) => void): void } | null = null;

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
        seat: { radius: 12, color: '#6796ff', hover: '#5671ff', not_salable: '#424747', selected: '#56aa45', focus: '#435fa4', focus_out: '#56aa45' },
        block: { fill: '#e2e2e2', stroke: '#e2e2e2' },
        label: { color: '#000', radius: 12, 'font-size': '12px', bg: '#ffffff' },
        legend: {},
        tooltip: {},
      },
    }) as unknown as NonNullable<typeof map>;
    map = instance;
    instance.addEventListener('SEAT.CLICK', (seat) => {
      if (seat.isSelected?.()) seat.unSelect?.();
      else if (seat.item?.salable !== false) seat.select?.();
    });
    instance.data.replaceData(blocks);
    await nextPaint();
    return performance.now() - start;
  },
  target() {
    const seats = [...document.querySelectorAll('.seats_container g.seat')];
    return centre(seats.find((s) => !s.classList.contains('not-salable') && centre(s))) ?? centre(seats.find((s) => centre(s)));
  },
  selected() {
    return map?.data.getSelectedSeats().length ?? 0;
  },
});
