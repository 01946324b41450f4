/**
 * The shared selection: event → performance. Choosing an event in
 * <event-list> drives <performance-calendar>, which drives <seat-picker>.
 */
import { Store } from './store.ts';

export interface Selection {
  eventId: number | null;
  performanceId: number | null;
  /** How many tickets the visitor wants, when a calendar or picker asked. */
  ticketCount: number | null;
}

export class SelectionStore extends Store<Selection> {
  constructor() {
    super(Object.freeze({ eventId: null, performanceId: null, ticketCount: null }));
  }

  /** A new event clears the performance. */
  selectEvent(eventId: number | null): void {
    if (eventId === this.value.eventId) return;
    this.patch({ eventId, performanceId: null });
  }

  selectPerformance(performanceId: number | null, eventId: number | null = this.value.eventId): void {
    if (performanceId === this.value.performanceId && eventId === this.value.eventId) return;
    this.patch({ performanceId, eventId });
  }

  setTicketCount(ticketCount: number | null): void {
    if (ticketCount === this.value.ticketCount) return;
    this.patch({ ticketCount });
  }
}
