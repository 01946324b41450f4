/**
 * What a countdown shows against the hold's true time left, at every moment it
 * is on screen (issue 16): never more than remains, and less by at most a
 * second. On a fake clock, sampled every 50 ms and at each millisecond around
 * the hold's second marks (where the ticks fall), so a value that stays up for
 * the second after a tick is seen there too.
 *
 *   const breaches = await countdownBreaches({ timers, remaining, shown: { timer: () => ... }, settle });
 *   expect(breaches).to.deep.equal([]);
 */
import type sinon from 'sinon';
import { serviceTimeToInstant } from '../../../src/api/time.ts';
import type { BasketItem } from '../../../src/api/types.ts';

/** A hold's true time left (ms): its end as the service states it, against the service's clock. */
export function holdTimeLeft(item: BasketItem | undefined, serviceClock: { now(): number }, timeZone = 'Europe/London'): () => number {
  if (!item) throw new Error('nothing held');
  const end = serviceTimeToInstant(item.ExpirationDate, timeZone);
  return () => end - serviceClock.now();
}

/** `m:ss` → seconds. */
export function countdownSeconds(text: string): number {
  const m = /^(\d+):(\d{2})$/.exec(text);
  if (!m) throw new Error(`not a countdown: '${text}'`);
  return Number(m[1]) * 60 + Number(m[2]);
}

export interface CountdownSampling {
  timers: sinon.SinonFakeTimers;
  /** The hold's true time left (ms), by the service's clock; sampling starts when it is on a second mark. */
  remaining: () => number;
  /** Each countdown on the page, by name: the m:ss it shows. */
  shown: Record<string, () => string>;
  /** Lets the elements render what the timers that fell due asked for. */
  settle: () => Promise<void>;
  /** How long to sample (ms). */
  span?: number;
}

/** Every 50 ms, and each millisecond from 2 before to 2 after each second mark, over `span` (from 0). */
function instants(span: number, phase: number): number[] {
  const at = new Set<number>();
  for (let t = 0; t <= span; t += 50) at.add(t);
  for (let mark = phase; mark <= span + 2; mark += 1000) for (let d = -2; d <= 2; d += 1) if (mark + d >= 0 && mark + d <= span) at.add(mark + d);
  return [...at].sort((a, b) => a - b);
}

/** The samples at which a countdown showed more than remains, or over a second less (none: it kept the rule). */
export async function countdownBreaches({ timers, remaining, shown, settle, span = 3000 }: CountdownSampling): Promise<string[]> {
  const breaches: string[] = [];
  const phase = ((remaining() % 1000) + 1000) % 1000;
  let at = 0;
  let samples = 0;
  for (const instant of instants(span, phase)) {
    await timers.tickAsync(instant - at);
    at = instant;
    await settle();
    const left = remaining();
    if (left <= 0) break;
    for (const [name, read] of Object.entries(shown)) {
      const text = read();
      const showsMs = countdownSeconds(text) * 1000;
      samples += 1;
      if (!(showsMs < left && left - showsMs <= 1000)) breaches.push(`${name} at +${instant} ms: shows ${text} with ${left} ms left`);
    }
  }
  if (samples < 80) throw new Error(`only ${samples} samples`);
  return breaches;
}
