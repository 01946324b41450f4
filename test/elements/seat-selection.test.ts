/**
 * The seat picker's choice against its map and the basket (src/state/seat-selection.ts), with
 * no element: held seats that dropped out of FullAvailability stay on the map, a fresh map keeps
 * the chosen seats it still has and names the lost ones, and the derived sets stay the same
 * objects while nothing they are made of changed (the map view repaints by identity).
 */
import { expect } from '@open-wc/testing';
import { SeatSelection, heldExtras, reconcile, toggle, totalOf } from '../../src/state/seat-selection.ts';
import { buildSeatMap } from '../../src/state/seat-map.ts';
import { basketWith, performance, ticket } from './helpers/seat-fixtures.ts';

const PERF = performance(1).Performance;
const row = (ids: number[]) => ids.map((id, i) => ticket(id, 'Stalls', 'A', String(i + 1), 30 + i));

describe('seat selection (state)', () => {
  it('puts seats this performance holds in the basket on the map, though FullAvailability no longer lists them', () => {
    const tickets = row([1, 2, 3]);
    const held = ticket(9, 'Stalls', 'A', '4', 40);
    const selection = new SeatSelection();
    selection.derive({ tickets, content: basketWith([held]), performance: PERF, selected: [] });
    const map = selection.map;
    expect(map?.seats).to.have.length(4);
    const index = map?.byTicket.get(9);
    expect(index).to.be.a('number');
    expect([...selection.heldIdx]).to.deep.equal([index]);
    // Another performance's basket seats are not this map's.
    const other = new SeatSelection();
    other.derive({ tickets, content: basketWith([held]), performance: { ...PERF, PerformanceDate: '2026-12-05T19:30:00' }, selected: [] });
    expect(other.map?.seats).to.have.length(3);
    expect(other.heldIdx.size).to.equal(0);
    // Held seats FullAvailability still lists are not added twice.
    expect(heldExtras(basketWith([tickets[0]!]), PERF, () => new Set([1, 2, 3]))).to.deep.equal([]);
  });

  it('keeps the chosen seats a fresh map still has, in order, and names the ones it lost', () => {
    const selection = new SeatSelection();
    selection.derive({ tickets: row([1, 2, 3, 4]), content: null, performance: PERF, selected: [4, 2, 3] });
    const first = selection.map;
    const derived = selection.derive({ tickets: row([1, 3, 4]), content: null, performance: PERF, selected: [4, 2, 3] });
    expect(derived.rebuilt).to.equal(true);
    expect(derived.previous).to.equal(first);
    expect(derived.selected).to.deep.equal([4, 3]);
    expect(derived.lost).to.deep.equal([2]);
    const map = selection.map!;
    expect([...selection.selectedIdx].sort()).to.deep.equal([map.byTicket.get(3), map.byTicket.get(4)].sort());
    expect(reconcile([1, 3], map)).to.deep.equal({ kept: [1, 3], lost: [] });
  });

  it('builds nothing again and keeps its sets while the data is the same', () => {
    const tickets = row([1, 2, 3]);
    const content = basketWith([]);
    const selection = new SeatSelection();
    selection.derive({ tickets, content, performance: PERF, selected: [1] });
    const { map, selectedIdx, heldIdx } = selection;
    const again = selection.derive({ tickets, content, performance: PERF, selected: [1] });
    expect(again.rebuilt).to.equal(false);
    expect(again.lost).to.deep.equal([]);
    expect(selection.map).to.equal(map);
    expect(selection.selectedIdx).to.equal(selectedIdx);
    expect(selection.heldIdx).to.equal(heldIdx);
    // A new choice changes the choice's set only.
    selection.derive({ tickets, content, performance: PERF, selected: [1, 2] });
    expect(selection.selectedIdx).not.to.equal(selectedIdx);
    expect(selection.selectedIdx.size).to.equal(2);
    expect(selection.heldIdx).to.equal(heldIdx);
    // The seat the service refused: one set, the same while it is the same seat.
    selection.markInvalid(1);
    const invalid = selection.invalidIdx;
    selection.markInvalid(1);
    expect(selection.invalidIdx).to.equal(invalid);
    expect([...invalid]).to.deep.equal([1]);
    selection.markInvalid(-1);
    expect(selection.invalidIdx.size).to.equal(0);
  });

  it('chooses and puts back seats, never one in the basket, never more than the most', () => {
    expect(toggle([], 1, { held: false, max: 2 })).to.deep.equal({ kind: 'added', selected: [1] });
    expect(toggle([1, 2], 1, { held: false, max: 2 })).to.deep.equal({ kind: 'removed', selected: [2] });
    expect(toggle([1, 2], 3, { held: false, max: 2 })).to.deep.equal({ kind: 'full' });
    expect(toggle([1], 3, { held: true, max: 2 })).to.deep.equal({ kind: 'held' });
    const map = buildSeatMap(row([1, 2, 3]));
    expect(totalOf(map, [1, 3, 99])).to.equal(30 + 32);
  });
});
