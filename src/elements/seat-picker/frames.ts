/**
 * Frame timing for work that should wait for the next frame, and that still runs on a
 * hidden page (which produces no frames).
 */
/** A hidden page gets no animation frames nor resize reports: work that waits for one is done at once there. */
export function hidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * Run `fn` at the start of the next frame (rAF); on a hidden page (no frames) in the next
 * task, also when the page is hidden before that frame comes.
 */
export function nextFrame(fn: () => void): void {
  const soon = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => fn();
    channel.port2.postMessage(null);
  };
  if (hidden() || typeof requestAnimationFrame !== 'function') return soon();
  const onHide = () => {
    if (!hidden()) return;
    document.removeEventListener('visibilitychange', onHide);
    cancelAnimationFrame(id);
    soon();
  };
  const id = requestAnimationFrame(() => {
    document.removeEventListener('visibilitychange', onHide);
    fn();
  });
  document.addEventListener('visibilitychange', onHide);
}

/**
 * Run `fn` in a task just after the next frame is produced (rAF, then a message: the frame
 * is not delayed by it). On a hidden page (no frames) in the next task. Returns the rAF id
 * (0 when none), for cancelAnimationFrame.
 */
export function afterNextFrame(fn: () => void): number {
  const task = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => fn();
    channel.port2.postMessage(null);
  };
  if (hidden() || typeof requestAnimationFrame !== 'function') {
    task();
    return 0;
  }
  return requestAnimationFrame(task);
}
