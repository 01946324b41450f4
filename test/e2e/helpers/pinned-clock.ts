/**
 * One instant the end-to-end tests' sandboxes start from, whatever today is: Sunday 29 November
 * 2026, noon in London, in the last days of a month (a show may have nothing left in it: Midnight
 * Brass plays next on Friday 4 December). The clock moves on from there as the test runs, so holds
 * and payment windows count down as they would. A page whose own clock must agree installs it
 * (`context.clock.install({ time: pinnedClock.now() })`); the widget otherwise takes the service's
 * clock from its answers. So the suite passes on any day of the year.
 */
export const PINNED = Date.UTC(2026, 10, 29, 12);

const started = Date.now();

export const pinnedClock = { now: (): number => PINNED + (Date.now() - started) };
