/**
 * A tiny observable holding an immutable snapshot: every change replaces the
 * value (what makes @lit/context consumers and controllers re-render).
 */
export type Listener<T> = (value: T, previous: T) => void;

export class Store<T> {
  private listeners = new Set<Listener<T>>();

  constructor(private current: T) {}

  get value(): T {
    return this.current;
  }

  protected set(next: T): void {
    const previous = this.current;
    if (Object.is(previous, next)) return;
    this.current = Object.freeze(next);
    for (const listener of [...this.listeners]) listener(next, previous);
  }

  protected patch(changes: Partial<T>): void {
    this.set({ ...this.current, ...changes });
  }

  subscribe(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
