/**
 * What every benchmark page exposes to the runner (window.seatBench), and the
 * shared timing helpers. Bundled into each page.
 */
export interface SeatBench {
  /** Render the venue of `size` seats; resolves with ms from the render call to the first painted frame. */
  render(size: number): Promise<number>;
  /** Client coordinates of an available seat in view. */
  target(): { x: number; y: number } | null;
  /** How many seats are selected now (to check that a click selected one). */
  selected(): number;
  /** Where to click first, when the library needs a click before seats can be chosen (not timed). */
  prepareClick?(): { x: number; y: number } | null;
}

declare global {
  interface Window {
    seatBench: SeatBench;
    clickFrame: Promise<number>;
  }
}

/** Resolves after the next frame has been produced (double requestAnimationFrame). */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

/**
 * Time from a pointerdown to the frame that follows the click (rAF, then a
 * task after it, so that frame's style, layout and paint are included).
 * Listeners are on window in the capture phase: they see the click whatever
 * the library does with it.
 */
export function armClickTimer(): void {
  window.clickFrame = new Promise((resolve) => {
    let start = 0;
    window.addEventListener('pointerdown', () => (start = performance.now()), { capture: true, once: true });
    window.addEventListener(
      'click',
      () => {
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(performance.now() - start);
          channel.port2.postMessage(null);
        });
      },
      { capture: true, once: true },
    );
  });
}

export function install(bench: SeatBench): void {
  window.seatBench = bench;
  (window as unknown as { armClickTimer: () => void }).armClickTimer = armClickTimer;
}

export function centre(el: Element | null | undefined): { x: number; y: number } | null {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) return null;
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}
