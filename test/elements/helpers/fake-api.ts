/**
 * Test helpers: a fake api client (handlers per operation, every call
 * recorded), typed service errors, and a booking wired to the fake, given to
 * elements through a <booking-provider>.
 */
import { html, type TemplateResult } from 'lit';
import { fixture } from '@open-wc/testing';
import { ApiError, NetworkError, type ApiClient, type ApiMethods } from '../../../src/api/client.ts';
import { operations, type OperationName } from '../../../src/api/operations.ts';
import type { RoomAnswer, RoomJoinBody } from '../../../src/api/room.ts';
import { ServerClock } from '../../../src/api/time.ts';
import { createBooking, registerSharedBooking, type BookingContextValue } from '../../../src/state/booking.ts';
import { resolveConfig, type BookingConfig } from '../../../src/state/config.ts';
import '../../../src/elements/booking-provider/booking-provider.ts';
// The basket's requests at hand from the start, as the parts that change the basket bring them in
// the bundle (the seat picker's Add, the checkout): a test's first add does not wait for a download.
import '../../../src/state/basket-engine.ts';

/** The waiting room's join-and-poll call, beside the operations: `join` is the path, `body` what was sent. */
type RoomHandler = (args: { join: string; body: RoomJoinBody }) => RoomAnswer | Promise<RoomAnswer>;

export type Handlers = Partial<{ [K in OperationName]: (args: Parameters<ApiMethods[K]>[0]) => ReturnType<ApiMethods[K]> | Awaited<ReturnType<ApiMethods[K]>> }> & {
  joinRoom?: RoomHandler;
};

type CallName = OperationName | 'joinRoom';

export interface FakeApi extends ApiClient {
  calls: { name: CallName; args: unknown }[];
  callsTo(name: CallName): unknown[];
}

export function fakeApi(handlers: Handlers, options: { endpoint?: string; clock?: ServerClock } = {}): FakeApi {
  const calls: FakeApi['calls'] = [];
  const client: Record<string, unknown> = {
    endpoint: options.endpoint ?? '/fake-api',
    clock: options.clock ?? new ServerClock(),
    calls,
    callsTo: (name: CallName) => calls.filter((c) => c.name === name).map((c) => c.args),
    joinRoom: async (join: string, body: RoomJoinBody) => {
      calls.push({ name: 'joinRoom', args: { join, body } });
      if (!handlers.joinRoom) throw new Error('fake api: joinRoom is not stubbed');
      return handlers.joinRoom({ join, body });
    },
  };
  for (const name of Object.keys(operations) as OperationName[]) {
    client[name] = async (args: unknown) => {
      calls.push({ name, args });
      const handler = handlers[name] as ((a: unknown) => unknown) | undefined;
      if (!handler) throw new Error(`fake api: ${name} is not stubbed`);
      return handler(args);
    };
  }
  return client as unknown as FakeApi;
}

/** The typed error the real client throws for an HTTP status. */
export function apiError(operation: CallName, status: number, body: unknown = { Message: `HTTP ${status}` }): ApiError {
  const message = typeof body === 'object' && body && 'Message' in body ? String((body as { Message: unknown }).Message) : `HTTP ${status}`;
  return new ApiError(operation, status, body, message);
}

export function networkError(operation: OperationName): NetworkError {
  return new NetworkError(operation);
}

let counter = 0;

/** A booking on a fresh endpoint, wired to the fake api (never touches another test's basket). */
export function testBooking(api: FakeApi, config: Partial<BookingConfig> = {}): BookingContextValue {
  counter += 1;
  const endpoint = config.endpoint ?? `/test-endpoint-${counter}-${Math.random().toString(36).slice(2)}`;
  const booking = createBooking(resolveConfig({ ...config, endpoint }), { api, restore: false });
  registerSharedBooking(booking);
  return booking;
}

/** Render `template` inside a <booking-provider> giving it `booking`; returns the first element child. */
export async function withBooking<T extends Element>(booking: BookingContextValue, template: TemplateResult): Promise<T> {
  const provider = await fixture(html`<booking-provider .booking=${booking}>${template}</booking-provider>`);
  const child = provider.firstElementChild as T | null;
  if (!child) throw new Error('withBooking: no element rendered');
  if ('updateComplete' in child) await (child as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  return child;
}
