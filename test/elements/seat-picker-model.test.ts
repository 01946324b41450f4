import { expect } from '@open-wc/testing';
import { bestBlock, buildSeatMap, compareNatural, leavesSingleSeat, neighbour, seatAt, seatsIn } from '../../src/state/seat-map.ts';
import { ticket } from './helpers/seat-fixtures.ts';

describe('natural order of rows and seats', () => {
  const sorted = (xs: string[]) => [...xs].sort(compareNatural);

  it('puts single-letter rows before double-letter rows (B before AA)', () => {
    expect(sorted(['AA', 'B', 'A', 'Z', 'AB', 'BA'])).to.deep.equal(['A', 'B', 'Z', 'AA', 'AB', 'BA']);
  });

  it('orders numbers by value (9 before 10)', () => {
    expect(sorted(['10', '9', '1', '100', '2'])).to.deep.equal(['1', '2', '9', '10', '100']);
  });

  it('orders mixed labels chunk by chunk, ignoring case', () => {
    expect(sorted(['A10', 'a2', 'A1', 'B1'])).to.deep.equal(['A1', 'a2', 'A10', 'B1']);
    expect(sorted(['Box 12', 'Box 3'])).to.deep.equal(['Box 3', 'Box 12']);
  });

  it('is a total order: equal only for equal text', () => {
    expect(compareNatural('01', '1')).to.not.equal(0);
    expect(compareNatural('C', 'C')).to.equal(0);
    expect(Math.sign(compareNatural('A', 'B'))).to.equal(-Math.sign(compareNatural('B', 'A')));
  });
});

describe('the seat map model', () => {
  const map = buildSeatMap([
    ticket(1, 'Stalls', 'B', '10', 45),
    ticket(2, 'Stalls', 'AA', '1', 30),
    ticket(3, 'Stalls', 'B', '9', 45),
    ticket(4, 'Stalls', 'A', '2', 45),
    ticket(5, 'Dress Circle', 'C', '14', 62.5, true, 'Pillar'),
    ticket(6, 'Stalls', 'A', '5', 45),
    ticket(6, 'Stalls', 'A', '5', 45), // listed twice: counted once
  ]);

  it('keeps areas in the service order and rows and seats in natural order', () => {
    expect(map.areas.map((a) => a.name)).to.deep.equal(['Stalls', 'Dress Circle']);
    expect(map.rows.map((r) => `${r.area}:${r.label}:${r.seats.map((i) => map.seats[i]?.seat).join('|')}`)).to.deep.equal([
      'Stalls:A:2|5',
      'Stalls:B:9|10',
      'Stalls:AA:1',
      'Dress Circle:C:14',
    ]);
    expect(map.seats).to.have.length(6);
  });

  it('places numbered seats at their number, so sold seats leave gaps', () => {
    const [two, five] = (map.rows[0]?.seats ?? []).map((i) => map.seats[i]);
    expect((five?.x ?? 0) - (two?.x ?? 0)).to.equal(3);
  });

  it('names price bands cheapest first, each with a letter', () => {
    expect(map.bands.map((b) => `${b.label}${b.price}`)).to.deep.equal(['A30', 'B45', 'C62.5']);
  });

  it('counts the restricted-view seats (what the legend shows)', () => {
    expect(map.restrictedCount).to.equal(1);
    expect(buildSeatMap([ticket(1, 'Stalls', 'A', '1', 30)]).restrictedCount).to.equal(0);
  });

  it('sorts seats listed out of order, numbered or not', () => {
    const lettered = buildSeatMap([ticket(1, 'Box', 'A', 'b10', 30), ticket(2, 'Box', 'A', 'b9', 30), ticket(3, 'Box', 'A', 'a1', 30)]);
    expect(lettered.rows[0]?.seats.map((i) => lettered.seats[i]?.seat)).to.deep.equal(['a1', 'b9', 'b10']);
    expect(lettered.seats.map((s) => s.x)).to.deep.equal([1.5, 2.5, 3.5]);
  });

  it('finds the seat under a point and the seats in a rectangle', () => {
    const seat = map.seats[map.byTicket.get(3) ?? -1];
    expect(seat).to.exist;
    expect(seatAt(map, (seat?.x ?? 0) + 0.5, (seat?.y ?? 0) + 0.5)).to.equal(seat?.index);
    expect(seatAt(map, -5, -5)).to.equal(-1);
    expect([...seatsIn(map, 0, 0, map.width, map.height)]).to.have.length(6);
  });

  it('moves by arrow within a row and to the nearest seat of the next row', () => {
    const a2 = map.byTicket.get(4) ?? -1;
    const a5 = map.byTicket.get(6) ?? -1;
    expect(neighbour(map, a2, 'right')).to.equal(a5);
    expect(neighbour(map, a5, 'right')).to.equal(a5); // the end of the row
    expect(map.seats[neighbour(map, a5, 'down')]?.seat).to.equal('9'); // B9 is the nearest seat of row B to A5
    expect(map.seats[neighbour(map, map.byTicket.get(2) ?? -1, 'down')]?.area).to.equal('Dress Circle');
    expect(neighbour(map, a5, 'home')).to.equal(a2);
  });
});

describe('best block of seats (best available)', () => {
  const t = (row: string, seat: number) => ({ TicketId: row.charCodeAt(0) * 1000 + seat, TicketName1: row, TicketName2: String(seat) });
  const seatsOf = (block: { TicketName1: string; TicketName2: string }[] | null) => block?.map((s) => `${s.TicketName1}${s.TicketName2}`) ?? null;

  it('keeps the block in one row, side by side, even when the list runs across rows', () => {
    // The list ends row A with one seat and starts row B: the first two tickets are not together.
    const tickets = [t('A', 24), t('B', 1), t('B', 2), t('B', 3), t('B', 4)];
    expect(seatsOf(bestBlock(tickets, 2))).to.deep.equal(['B1', 'B2']);
  });

  it('never strands a single free seat beside the block when another choice exists', () => {
    // Row A: 1-3 free. Taking 1-2 or 2-3 leaves one seat alone; row B 5-8 has room.
    const tickets = [t('A', 1), t('A', 2), t('A', 3), t('B', 5), t('B', 6), t('B', 7), t('B', 8)];
    const block = seatsOf(bestBlock(tickets, 2));
    expect(block).to.not.deep.equal(['A1', 'A2']);
    expect(block).to.not.deep.equal(['A2', 'A3']);
    expect(block?.[0]?.startsWith('B')).to.equal(true);
  });

  it('prefers the front row, then the middle of it, in natural order (row B before AA, seat 9 before 10)', () => {
    const tickets = [t('AA', 1), t('AA', 2), ...[8, 9, 10, 11, 12, 13, 14, 15, 16].map((n) => t('B', n))];
    expect(seatsOf(bestBlock(tickets, 3))).to.deep.equal(['B11', 'B12', 'B13']);
  });

  it('gives null when no row holds that many together', () => {
    expect(bestBlock([t('A', 1), t('A', 3), t('B', 5)], 2)).to.equal(null);
  });
});

describe('leavesSingleSeat: the rule the service refuses by, read from the map', () => {
  // Row A: seats 1-5 free; row B: 1, 2 and 4 free (3 taken).
  const map = buildSeatMap([
    ...[1, 2, 3, 4, 5].map((n) => ticket(n, 'Stalls', 'A', String(n), 30)),
    ticket(11, 'Stalls', 'B', '1', 30),
    ticket(12, 'Stalls', 'B', '2', 30),
    ticket(14, 'Stalls', 'B', '4', 30),
  ]);

  it('is true when a free seat would be left between chosen seats, taken seats or the row end', () => {
    expect(leavesSingleSeat(map, [2]), 'A1 alone at the row end').to.equal(true);
    expect(leavesSingleSeat(map, [2, 4]), 'A3 between two chosen').to.equal(true);
    expect(leavesSingleSeat(map, [11]), 'B2 between a chosen seat and a taken one').to.equal(true);
  });

  it('is false for a block that leaves every free seat beside another free seat, or takes the last one', () => {
    expect(leavesSingleSeat(map, [1, 2])).to.equal(false);
    expect(leavesSingleSeat(map, [3])).to.equal(false);
    expect(leavesSingleSeat(map, [14]), 'B4 alone: nothing free beside it to strand').to.equal(false);
    expect(leavesSingleSeat(map, [11, 12])).to.equal(false);
    expect(leavesSingleSeat(map, [])).to.equal(false);
  });
});
