/**
 * The api client and the waiting room (issue 32): the queue id and an unexpired pass, kept in
 * localStorage per endpoint, go with the operations a room gates and the room's own call; nothing
 * goes while the visitor never met a room, and never with browsing (no CORS preflight added).
 */
import { expect } from '@open-wc/testing';
import { createApiClient } from '../../src/api/client.ts';
import { endpointKey } from '../../src/api/endpoint.ts';
import { roomOf } from '../../src/api/room-refusal.ts';
import { WaitingRoom } from '../../src/state/waiting-room.ts';

const ENDPOINT = `https://tickets.example/api-${Math.random().toString(36).slice(2)}`;
const KEY = endpointKey(ENDPOINT);
const BASKET = '0f8fad5b-d9cb-469f-a165-70867728950e';

function recording(answer: () => Response = () => Response.json({ PerformanceId: 1, EventId: 5, AvailableTickets: [] })) {
  const sent: { url: string; headers: Headers; body: string | null }[] = [];
  const api = createApiClient({
    endpoint: ENDPOINT,
    fetch: async (input, init) => {
      sent.push({ url: String(input), headers: new Headers(init?.headers), body: (init?.body as string | undefined) ?? null });
      return answer();
    },
  });
  return { api, sent };
}

describe('api client: the waiting room\'s headers', () => {
  afterEach(() => {
    localStorage.removeItem(`stagedoor:queue:${KEY}`);
    localStorage.removeItem(`stagedoor:pass:${KEY}`);
  });

  it('sends nothing of the room before the visitor met one', async () => {
    const { api, sent } = recording();
    await api.getFullAvailability({ performanceId: 1 });
    expect(sent[0]?.headers.has('Stagedoor-Queue-Id')).to.equal(false);
    expect(sent[0]?.headers.has('Stagedoor-Pass')).to.equal(false);
  });

  it('sends the queue id and an unexpired pass on the gated operations only', async () => {
    localStorage.setItem(`stagedoor:queue:${KEY}`, 'visitor-1');
    localStorage.setItem(`stagedoor:pass:${KEY}`, JSON.stringify({ token: 'hot-show.x.sig', expiresAt: new Date(Date.now() + 600_000).toISOString(), until: Date.now() + 600_000 }));
    const { api, sent } = recording();
    await api.getFullAvailability({ performanceId: 1 });
    await api.getAvailableTickets({ performanceId: 1, requiredTicketsCount: 2 });
    await api.validateSeatsSelection({ performanceId: 1, body: { SeatIds: '1' } as never }).catch(() => undefined);
    await api.getEventAvailableTickets({ eventId: 5 }).catch(() => undefined);
    await api.createBasket().catch(() => undefined);
    await api.addTickets({ basketId: BASKET, body: { Tickets: [1] } }).catch(() => undefined);
    await api.addTicketsV3({ basketId: BASKET, performanceId: 1, body: {} as never }).catch(() => undefined);
    for (const request of sent) {
      expect(request.headers.get('Stagedoor-Queue-Id'), request.url).to.equal('visitor-1');
      expect(request.headers.get('Stagedoor-Pass'), request.url).to.equal('hot-show.x.sig');
    }
    expect(sent.map((r) => r.url.slice(ENDPOINT.length))).to.deep.equal([
      '/rest/v2/Performances/1/FullAvailability',
      '/rest/v2/Performances/1/AvailableTickets?requiredTicketsCount=2',
      '/rest/v2/Performances/1/SeatsSelectionValidation',
      '/rest/v2/Events/5/AvailableTickets',
      '/rest/v2/Baskets',
      `/rest/v2/Baskets/${BASKET}/Tickets`,
      `/v3/Baskets/${BASKET}/performances/1/tickets`,
    ]);
    // Browsing stays as it was: no header, so no preflight for a cross-origin proxy.
    await api.getPerformance({ performanceId: 1 }).catch(() => undefined);
    await api.getAreasPrices({ performanceId: 1 }).catch(() => undefined);
    await api.getEvents().catch(() => undefined);
    for (const request of sent.slice(7)) {
      expect(request.headers.has('Stagedoor-Queue-Id'), request.url).to.equal(false);
      expect(request.headers.has('Stagedoor-Pass'), request.url).to.equal(false);
    }
  });

  it('leaves an expired pass behind (the queue id still goes)', async () => {
    localStorage.setItem(`stagedoor:queue:${KEY}`, 'visitor-1');
    localStorage.setItem(`stagedoor:pass:${KEY}`, JSON.stringify({ token: 'old', expiresAt: new Date(Date.now() - 1000).toISOString(), until: Date.now() - 1000 }));
    const { api, sent } = recording();
    await api.getFullAvailability({ performanceId: 1 });
    expect(sent[0]?.headers.get('Stagedoor-Queue-Id')).to.equal('visitor-1');
    expect(sent[0]?.headers.has('Stagedoor-Pass')).to.equal(false);
  });

  it('joins the room at the path the refusal named, with the queue id, and reads a 428 as that room', async () => {
    localStorage.setItem(`stagedoor:queue:${KEY}`, 'visitor-1');
    const refusal = { Message: 'This performance is behind a waiting room: join it to get a pass.', Room: { id: 'hot-show', join: '/api/stagedoor/room/hot-show' }, Pass: 'missing' };
    const { api, sent } = recording(() => Response.json(refusal, { status: 428 }));
    const error = await api.getFullAvailability({ performanceId: 1 }).catch((e: unknown) => e);
    expect(roomOf(error)).to.deep.equal({ id: 'hot-show', join: '/api/stagedoor/room/hot-show' });
    await api.joinRoom('/api/stagedoor/room/hot-show', {}).catch(() => undefined);
    expect(sent[1]?.url).to.equal('https://tickets.example/api/stagedoor/room/hot-show');
    expect(sent[1]?.headers.get('Stagedoor-Queue-Id')).to.equal('visitor-1');
    expect(sent[1]?.headers.get('Content-Type')).to.equal('application/json');
    expect(sent[1]?.body).to.equal('{}');
  });

  it('keeps sending a pass the room gave while the room honours it, whatever the visitor\'s clock says', async () => {
    // The proxy's clock two hours behind the visitor's (a wrong clock, or the service's own):
    // its pass runs 15 minutes on ITS clock, so it is good now though its expiry is past on ours.
    const proxyNow = Date.now() - 2 * 3600_000;
    const pass = { token: 'hot-show.skew.sig', expiresAt: new Date(proxyNow + 900_000).toISOString() };
    const admitted = {
      room: 'hot-show', status: 'admitted', opensAt: new Date(proxyNow - 60_000).toISOString(), now: new Date(proxyNow).toISOString(),
      position: null, ahead: null, ratePerMinute: 60, waitSeconds: null, pollSeconds: 20, pass,
    };
    const { api, sent } = recording(() => (sent.length === 1 ? Response.json(admitted) : Response.json({ PerformanceId: 1, EventId: 5, AvailableTickets: [] })));
    const room = new WaitingRoom(api, KEY, { id: 'hot-show', join: '/api/stagedoor/room/hot-show' });
    const done = new Promise<void>((resolve) => room.subscribe((state) => state.pass && resolve()));
    room.start();
    await done;
    await api.getFullAvailability({ performanceId: 1 });
    expect(sent[1]?.headers.get('Stagedoor-Pass')).to.equal('hot-show.skew.sig');
  });
});
