/**
 * One description of each seat symbol (src/elements/seat-picker/seat-symbols.ts): the legend
 * draws the very shapes the canvas draws, and the canvas draws them where the description says
 * (a pixel of each mark, in the mark's colour, on a seat painted at zoom 1).
 */
import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { renderLegend } from '../../src/elements/seat-picker/seat-map-legend.ts';
import { SeatMapPainter, type PaintView, type SeatMapPalette } from '../../src/elements/seat-picker/seat-map-painter.ts';
import { BAND_MARKS, CHECK_MARK, RESTRICTED_CORNER, SEAT_UNITS } from '../../src/elements/seat-picker/seat-symbols.ts';
import { buildSeatMap } from '../../src/state/seat-map.ts';
import { ticket } from './helpers/seat-fixtures.ts';

/** Eight price bands, one seat each, the first restricted. */
function eightBands() {
  return buildSeatMap(Array.from({ length: 8 }, (_, i) => ticket(i + 1, 'Stalls', 'A', String(i + 1), 10 * (i + 1), i === 0)));
}

describe('seat symbols', () => {
  it('the legend draws each band mark, the check and the restricted corner from the one description', () => {
    const map = eightBands();
    const host = document.createElement('div');
    render(renderLegend(map, { held: true, invalid: false }, (n) => `£${n}`), host);
    const swatches = [...host.querySelectorAll('.swatch')];
    const paths = (swatch: Element | undefined) => [...(swatch?.querySelectorAll('path') ?? [])].map((p) => p.getAttribute('d'));
    for (let band = 0; band < 6; band++) {
      const mark = BAND_MARKS[band];
      expect(paths(swatches[band]), `band ${band}`).to.deep.equal(mark ? [mark.d] : []);
    }
    // From the seventh band on, the letter.
    expect(swatches[6]?.querySelector('text')?.textContent).to.equal('G');
    const [choice, held, restricted] = swatches.slice(8);
    expect(paths(choice)).to.deep.equal([CHECK_MARK.d]);
    expect(paths(held)).to.deep.equal([CHECK_MARK.d]);
    expect(paths(restricted)).to.deep.equal([RESTRICTED_CORNER.d]);
  });

  it('the canvas draws the same shapes where the description puts them', () => {
    const map = eightBands();
    const host = document.createElement('div');
    document.body.append(host);
    const painter = new SeatMapPainter(host);
    const palette: SeatMapPalette = {
      bands: ['#0000ff', '#0000ff', '#0000ff', '#0000ff', '#0000ff', '#0000ff'],
      mark: '#ffffff', selected: '#00ff00', selectedMark: '#000000', held: '#808080', restricted: '#ff0000',
      invalid: '#ff00ff', text: '#000000', background: '#ffffff', focus: '#000000', outline: null, font: 'sans-serif',
    };
    (painter as unknown as { readPalette(): SeatMapPalette }).readPalette = () => palette;
    const canvas = document.createElement('canvas');
    canvas.width = 300;
    canvas.height = 100;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    const view: PaintView = { map, selected: new Set(), held: new Set(), invalid: new Set(), zoom: 1, dpr: 1, box: { w: 300, h: 100, left: 0, top: 0 } };
    /** The colour of the pixel at a point of a seat (in seat units), painted alone in the cell 5 cells from the left (clear of the row labels). */
    const at = (index: number, x: number, y: number) => {
      ctx.clearRect(0, 0, 300, 100);
      const seat = map.seats[index]!;
      painter.paintSeat(ctx, view, { ...seat, x: 5, y: 0 });
      const left = 5 * 28 + (28 - 24) / 2; // the seat in its cell (SEAT_PITCH 28, SEAT_SIZE 24 at zoom 1)
      const top = (28 - 24) / 2;
      const [r = 0, g = 0, b = 0] = ctx.getImageData(Math.floor(left + x), Math.floor(top + y), 1, 1).data;
      // Named by colour, allowing for the edges' antialiasing.
      if (r > 230 && g > 230 && b > 230) return 'mark';
      if (r < 30 && g < 30 && b > 230) return 'seat';
      if (r > 230 && g < 30 && b < 30) return 'corner';
      return `${r},${g},${b}`;
    };
    expect(SEAT_UNITS).to.equal(24);
    expect(at(0, 21, 3), 'the restricted corner, upper right').to.equal('corner');
    expect(at(0, 12, 20), 'no corner below it').to.equal('seat');
    expect(at(2, 12, 12), 'band C: the dot at the middle').to.equal('mark');
    expect(at(3, 9, 12), 'band D: the bar').to.equal('mark');
    expect(at(3, 12, 8), 'band D: nothing above the bar').to.equal('seat');
    expect(at(4, 12, 8), 'band E: the plus').to.equal('mark');
    expect(at(5, 12, 12), 'band F: the ring is hollow').to.equal('seat');
    expect(at(5, 14, 8), 'band F: the ring (up and right of the middle)').to.equal('mark');
    host.remove();
  });
});
