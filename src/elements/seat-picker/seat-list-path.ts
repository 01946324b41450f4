/**
 * The "choose from a list" path's disclosure in <seat-picker>: whether it is open, the area and
 * row chosen in it, and its frame. Its body (the area, row and seat checkboxes: seat-list.ts)
 * comes with the later part; opening the list asks for that part when it is not here yet.
 */
import { msg } from '../../i18n/msg.ts';
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { SeatMap } from '../../state/seat-map.ts';
import type { LaterPart } from './seat-adding.ts';
import type { ListView } from './seat-list.ts';

/** What the list shows of the choice (the rest of `ListView` is the path's own). */
export type ListChoice = Omit<ListView, 'area' | 'row' | 'onArea' | 'onRow'>;

export class SeatListPath {
  private state = { open: false, area: 0, row: 0 };

  constructor(private readonly host: ReactiveControllerHost) {}

  /** Another performance: back to its first area and row. */
  reset(): void {
    this.state = { ...this.state, area: 0, row: 0 };
  }

  /** The disclosure; its body when open (from the later part, `later()` asks for it when it is not here yet). */
  render(map: SeatMap, choice: ListChoice, laterPart: LaterPart | undefined, later: () => unknown): TemplateResult {
    const { open, area, row } = this.state;
    const body = open
      ? (laterPart?.renderListBody(map, { ...choice, area, row, onArea: this.handleArea, onRow: this.handleRow }) ??
        (void later(), html`<p part="loading" role="status">${msg('Loading the list…')}</p>`))
      : nothing;
    return html`<details part="list" ?open=${open} @toggle=${this.handleToggle}>
      <summary>${msg('Choose seats from a list')}</summary>
      ${body}
    </details>`;
  }

  private set(changes: Partial<SeatListPath['state']>): void {
    this.state = { ...this.state, ...changes };
    this.host.requestUpdate();
  }

  private readonly handleToggle = (e: Event): void => {
    const open = (e.target as HTMLDetailsElement).open;
    if (open !== this.state.open) this.set({ open });
  };

  private readonly handleArea = (e: Event): void => {
    this.set({ area: Number((e.target as HTMLSelectElement).value), row: 0 });
  };

  private readonly handleRow = (e: Event): void => {
    this.set({ row: Number((e.target as HTMLSelectElement).value) });
  };
}
