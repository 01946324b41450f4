/**
 * What the service says of the visitor's choice of seats: SeatsSelectionValidation, asked
 * once the choice has been still for a moment (a newer choice aborts the question), read as
 * a `SelectionCheck` (seat-summary.ts) for Add, the seats' names and the legend.
 */
import { Task, TaskStatus } from '@lit/task';
import type { ReactiveControllerHost } from 'lit';
import { isAbortError, type ApiClient } from '../../api/client.ts';
import type { SeatsSelectionValidationResult } from '../../api/types.ts';
import { notTogetherMessage, singleSeatMessage } from '../../state/single-seat-words.ts';
import type { SeatMap } from '../../state/seat-map.ts';
import type { SelectionCheck } from './seat-summary.ts';

/** How long the selection must stay still before it is validated (ms). */
export const VALIDATION_DELAY = 250;

/** Wait, unless aborted first (then reject with the signal's AbortError). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    }, { once: true });
  });
}

/** What the check reads of its element. */
export interface SelectionCheckPort {
  performanceId(): number | null;
  /** The chosen tickets (a new array on every change). */
  selected(): readonly number[];
  api(): ApiClient;
  /** Whether the choice leaves a single seat alone on the map (the rule the service may refuse it by). */
  leavesSingleSeat(): boolean;
}

export class SelectionValidation {
  private readonly task: Task<readonly [number | null, readonly number[]], SeatsSelectionValidationResult | null>;

  constructor(host: ReactiveControllerHost, private readonly port: SelectionCheckPort) {
    this.task = new Task(host, {
      args: () => [port.performanceId(), port.selected()] as const,
      task: async ([id, ticketIds], { signal }): Promise<SeatsSelectionValidationResult | null> => {
        if (id === null || !ticketIds.length) return null;
        // The basket's requests and failure words (one chunk; basket-engine.ts gives itself to the store as it
        // loads) are fetched with the first choice, beside its check: the first Add waits for no download, and
        // the way to a seat map ready for a tap pays for none of it.
        void import('../../state/basket-engine.ts').catch(() => undefined);
        const api = port.api();
        await pause(VALIDATION_DELAY, signal);
        try {
          return await api.validateSeatsSelection({ performanceId: id, body: { TicketIds: [...ticketIds] } }, { signal });
        } catch (error) {
          if (isAbortError(error)) throw error;
          return null; // the service will still judge the add itself
        }
      },
    });
  }

  /** The service's answer about the current choice, once it has one (null: none, or it could not be asked). */
  get complete(): Promise<SeatsSelectionValidationResult | null> {
    return this.task.taskComplete;
  }

  /**
   * What the service said of the current selection: nothing chosen; still being
   * checked (SeatsSelectionValidation after a short pause); fine to add (valid,
   * or the check could not be made: then the add itself is judged); or refused,
   * with the service's message and the seat it named (InvalidSeatID).
   */
  check(map: SeatMap | null): SelectionCheck {
    const selected = this.port.selected();
    if (!selected.length) return { state: 'none' };
    if (this.task.status !== TaskStatus.COMPLETE) return { state: 'checking' };
    const result = this.task.value;
    if (!result || result.SelectionValid) return { state: 'addable' };
    const id = Number(result.InvalidSeatID);
    const seat = result.InvalidSeatID && Number.isInteger(id) ? (map?.byTicket.get(id) ?? null) : null;
    // The single-seat rule, known from the map, in the visitor's language; another refusal in the service's words.
    return {
      state: 'refused',
      message: this.port.leavesSingleSeat()
        ? singleSeatMessage()
        : result.ErrorMessagePlan || result.ErrorMessageBasket || notTogetherMessage(),
      seat,
      disable: result.DisableBooking,
    };
  }
}
