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
    clickFrame: Promise<{ ms: number; frames: number }>;
  }
}

/** Resolves after the next frame has been produced (double requestAnimationFrame). */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

/**
 * Time from the input to the frame that shows its answer: from the
 * pointerdown's own timestamp (`event.timeStamp`: when the input was created,
 * so waiting in the page's queue counts) to the end of the first frame that
 * begins after the library reports the seat chosen (checked at each frame's
 * start, in rAF; the time is taken in a task after that frame, so its style,
 * layout and paint are included). The runner sends press and release back to
 * back (no pause between them). The listener is on window in the capture
 * phase: it sees the press whatever the library does with it.
 * `frames`: how many frames began after the press up to and including the one
 * that shows the answer (1: answered in the very next frame).
 */
export function armClickTimer(): void {
  const before = window.seatBench.selected();
  window.clickFrame = new Promise((resolve) => {
    window.addEventListener(
      'pointerdown',
      (event) => {
        const start = event.timeStamp;
        let frames = 0;
        const check = () => {
          frames += 1;
          if (window.seatBench.selected() === before) return void requestAnimationFrame(check);
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve({ ms: performance.now() - start, frames });
          channel.port2.postMessage(null);
        };
        requestAnimationFrame(check);
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
