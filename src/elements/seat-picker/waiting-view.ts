/**
 * <seat-picker>'s waiting view: shown instead of the seats while the proxy's waiting room holds
 * the performance (it answered 428 with a room). A chunk of its own, fetched only then: a page
 * with no room never loads it. Before the on-sale, a countdown to it on the room's clock; while
 * waiting, the place, the people ahead, the estimated wait as a range, and the progress since the
 * first place seen; paused, catching up or unreachable, what that means for the place. The page's
 * title shows the place (given back when the view goes); a polite announcement and the host's
 * `booking-queue-change` only when where the visitor stands changes meaningfully.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { ApiClient } from '../../api/client.ts';
import type { RoomRef } from '../../api/room.ts';
import { CountdownController, secondsLeft } from '../../controllers/countdown-controller.ts';
import type { BookingEventDetails } from '../../events.ts';
import { formatNumber } from '../../format.ts';
import { msg, str } from '../../i18n/msg.ts';
import type { BookingConfig } from '../../state/config.ts';
import { WaitingRoom, type QueueState } from '../../state/waiting-room.ts';
import { countdownDigits, countdownWords, openingTime, queueAnnouncement, queueTitle, waitWords } from './waiting-words.ts';
export { waitingViewStyles } from './waiting-view.styles.ts';

/** What the view needs from <seat-picker>. */
export interface WaitingHooks {
  readonly api: ApiClient;
  /** The endpoint's key (what the basket id and the room's queue id are kept under). */
  readonly endpointKey: string;
  readonly config: BookingConfig;
  announce(text: string): void;
  queueChanged(detail: BookingEventDetails['booking-queue-change']): void;
  /** Admitted (the pass is kept) or the room closed: the seats can be asked for again. */
  roomLeft(admitted: { room: string; expiresAt: string } | null): void;
}

/** The page's own title while a view shows the place in its stead (one page, one title). */
let pageTitle: string | null = null;

export class WaitingView implements ReactiveController {
  private room: WaitingRoom | null = null;
  private off: (() => void) | undefined;
  private spoken = '';
  private told = '';
  private readonly countdown: CountdownController;

  constructor(
    private readonly element: ReactiveControllerHost,
    private readonly host: WaitingHooks,
  ) {
    element.addController(this);
    this.countdown = new CountdownController(element, {
      now: () => (this.room ? this.room.clock.latest() : Date.now()),
      align: () => this.room?.state.opensAt ?? null,
      clock: () => this.room?.clock ?? null,
    });
  }

  /** Show `ref`'s room: join it (or take up the place kept), unless this view already waits in it. */
  show(ref: RoomRef): void {
    if (this.room?.ref.id === ref.id && this.room.ref.join === ref.join && (this.room.running || this.room.state.status === 'joining')) return;
    this.leave();
    const room = new WaitingRoom(this.host.api, this.host.endpointKey, ref);
    this.room = room;
    this.off = room.subscribe((state) => this.changed(state));
    room.start();
  }

  /** Stop waiting here (the view is no longer shown): the page's title is given back. */
  leave(): void {
    this.off?.();
    this.off = undefined;
    this.room?.stop();
    this.room = null;
    this.countdown.running = false;
    this.spoken = this.told = '';
    this.restoreTitle();
  }

  hostDisconnected(): void {
    this.leave();
  }

  private get secondsToOpen(): number {
    const opensAt = this.room?.state.opensAt;
    return opensAt == null ? 0 : secondsLeft(opensAt - this.countdown.now);
  }

  private changed(state: QueueState): void {
    this.element.requestUpdate();
    this.countdown.running = state.status === 'before';
    if (state.status === 'admitted' || state.status === 'closed') {
      const admitted = state.pass ? { room: state.room, expiresAt: state.pass.expiresAt } : null;
      if (state.status === 'admitted' && !admitted) return;
      this.leave();
      this.host.roomLeft(admitted);
      return;
    }
    const config = this.host.config;
    const { key, text } = queueAnnouncement(state, this.secondsToOpen, config);
    if (key !== this.spoken) {
      this.spoken = key;
      this.host.announce(text);
    }
    if (state.status === 'joining') return;
    const detail = { room: state.room, status: state.status, position: state.position, ahead: state.ahead, waitSeconds: state.waitSeconds };
    const told = JSON.stringify(detail);
    if (told !== this.told) {
      this.told = told;
      this.host.queueChanged(detail);
    }
    if (typeof document !== 'undefined') {
      pageTitle ??= document.title;
      document.title = queueTitle(state, pageTitle, config);
    }
  }

  private restoreTitle(): void {
    if (pageTitle !== null) document.title = pageTitle;
    pageTitle = null;
  }

  /** Before the on-sale, the countdown's step may change between polls: told as it comes (only at the steps). */
  hostUpdate(): void {
    const state = this.room?.state;
    if (state?.status !== 'before') return;
    const { key, text } = queueAnnouncement(state, this.secondsToOpen, this.host.config);
    if (key === this.spoken) return;
    this.spoken = key;
    this.host.announce(text);
  }

  render(): TemplateResult {
    const state = this.room?.state;
    if (!state) return html``;
    return html`<div class="queue" part="queue" role="group" aria-labelledby="queue-heading" data-status=${state.status}>
      <h3 id="queue-heading" part="queue-heading">${msg('Waiting room')}</h3>
      ${this.renderState(state)}
      <p class="queue-note" part="queue-note">${msg('Keep this page open: it updates by itself. A reload or another tab keeps your place.')}</p>
    </div>`;
  }

  private renderState(state: QueueState): TemplateResult {
    switch (state.status) {
      case 'before':
        return this.renderBefore(state);
      case 'waiting':
        return this.renderWaiting(state);
      case 'paused':
        return html`<p part="queue-message">${msg('The sale is paused. Your place in the queue is kept.')}</p>${this.renderFacts(state)}`;
      case 'catching-up':
        return html`<p part="queue-message">${msg('The waiting room is catching up. Your place in the queue is kept.')}</p>${this.renderFacts(state)}`;
      case 'offline':
        return html`<p part="queue-message">${msg('The waiting room cannot be reached just now. Trying again; your place in the queue is kept.')}</p>${this.renderFacts(state)}`;
      default:
        return html`<p part="queue-message">${msg('Joining the waiting room…')}</p>`;
    }
  }

  private renderBefore(state: QueueState): TemplateResult {
    const config = this.host.config;
    const left = this.secondsToOpen;
    const at = state.opensAt === null ? null : openingTime(state.opensAt, config);
    return html`<p part="queue-message">
        ${msg('The sale has not opened yet. Everyone who is here before it opens gets a place in the queue, in random order, when it does.')}
      </p>
      ${left > 0
        ? html`<p class="queue-opens">
            <span class="queue-label">${msg('Opens in')}</span>
            <span class="queue-countdown" part="queue-countdown" aria-hidden="true">${countdownDigits(left)}</span>
            <span class="visually-hidden">${countdownWords(left, config)}</span>
          </p>`
        : html`<p class="queue-countdown" part="queue-countdown">${msg('Opening…')}</p>`}
      ${at ? html`<p>${msg(str`The sale opens ${at}.`)}</p>` : nothing}`;
  }

  private renderWaiting(state: QueueState): TemplateResult {
    const { first, position } = state;
    const progress = first !== null && position !== null && first > position ? { value: first - position, max: first - 1 } : null;
    return html`${this.renderFacts(state)}
      ${progress
        ? html`<div class="queue-progress">
            <label class="queue-label" for="queue-progress">${msg('Progress through the queue')}</label>
            <progress id="queue-progress" part="queue-progress" value=${progress.value} max=${progress.max}></progress>
          </div>`
        : nothing}`;
  }

  /** The place, the people ahead and the estimate (only what the room said). */
  private renderFacts(state: QueueState): TemplateResult | typeof nothing {
    const config = this.host.config;
    if (state.position === null) return nothing;
    return html`<dl class="queue-facts">
      <div>
        <dt>${msg('Your place in the queue')}</dt>
        <dd part="queue-position">${formatNumber(state.position, config)}</dd>
      </div>
      ${state.ahead === null
        ? nothing
        : html`<div>
            <dt>${msg('People ahead of you')}</dt>
            <dd part="queue-ahead">${formatNumber(state.ahead, config)}</dd>
          </div>`}
      <div>
        <dt>${msg('Estimated wait')}</dt>
        <dd part="queue-wait">${waitWords(state.waitSeconds, config)}</dd>
      </div>
    </dl>`;
  }
}
