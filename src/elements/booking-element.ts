/**
 * The base of every Stagedoor element: an `endpoint` attribute (for a page
 * with no <booking-provider>), the booking controller, the shared styles, a
 * typed way to fire public events, parts loaded when first needed, and the
 * visitor's language: no render while a language is loading (so English
 * never flashes before it), and a `lang` attribute saying which language the
 * element speaks (screen readers pronounce by it).
 */
import type { Task } from '@lit/task';
import { LitElement, type CSSResult, type CSSResultGroup, type PropertyValues, type ReactiveController } from 'lit';
import { property } from 'lit/decorators.js';
import { BookingController } from '../controllers/booking-controller.ts';
import { bookingEvent, type BookingEventDetails, type BookingEventName } from '../events.ts';
import { intlLocale, localeLoading } from '../i18n/locale.ts';
import { sharedStyles } from './shared.styles.ts';

/** `TaskStatus.INITIAL` of @lit/task: a task that has never run. */
const TASK_INITIAL = 0;
const isTask = (controller: ReactiveController): controller is Task =>
  typeof (controller as Partial<Task>).run === 'function' && 'taskComplete' in controller && 'status' in controller;

/** How long an element waits for its language before rendering without it. */
const LOCALE_PATIENCE_MS = 3000;

/**
 * Each stylesheet's viewport when its media rules were last answered, as a count of what may have
 * changed it (reading the viewport's size instead forces a layout on every element's connect):
 * the window's resizes, and an orientation change, a page shown again or made visible, which may
 * come before the resize they cause is dispatched (none is, to a hidden page). Counted from the
 * first element's connect (importing a module registers nothing).
 */
const askedAt = new WeakMap<CSSStyleSheet, number>();
let viewportChanges = -1;
function viewportEpoch(): number {
  if (viewportChanges < 0) {
    viewportChanges = 0;
    const changed = () => void viewportChanges++;
    for (const type of ['resize', 'orientationchange', 'pageshow']) addEventListener(type, changed, { passive: true });
    document.addEventListener('visibilitychange', changed, { passive: true });
  }
  return viewportChanges;
}

/**
 * WebKit keeps a shared stylesheet's answers to viewport media queries from when it was last in
 * use: adopted again after the viewport changed meanwhile (a phone turned while no element showed
 * it), its `@media (max-width: …)` rules apply the old answer. Setting such a rule's media text
 * again makes the engine ask anew.
 */
function askViewportAgain(sheets: readonly CSSStyleSheet[]): void {
  const viewport = viewportEpoch();
  for (const sheet of sheets) {
    // Only if the viewport changed since this sheet was last asked (or first adopted, which
    // answers afresh): setting media text restyles the element, 20 ms of a throttled phone's
    // first render for the list's sheets, and nothing can be stale without a change.
    const last = askedAt.get(sheet);
    askedAt.set(sheet, viewport);
    if (last === undefined || last === viewport) continue;
    for (const rule of sheet.cssRules) {
      if (rule instanceof CSSMediaRule && /width|height|orientation|aspect-ratio/.test(rule.media.mediaText)) {
        rule.media.mediaText = rule.media.mediaText;
      }
    }
  }
}

export class BookingElement extends LitElement {
  static override styles: CSSResultGroup[] = [sharedStyles];

  /**
   * The proxy endpoint, when no <booking-provider> ancestor gives one
   * (default: the page configuration, else `/api`).
   */
  @property({ reflect: true }) endpoint: string | null = null;

  /** The element's loads (every @lit/task Task it holds), to load again from another api. */
  private readonly tasks = new Set<Task>();

  protected readonly bookingController = new BookingController(this);

  /** @internal Lit's, recording the element's Tasks on the way. */
  override addController(controller: ReactiveController): void {
    super.addController(controller);
    // A Task, known by its shape: importing @lit/task here would put it in every element's
    // first download, the timer's too, which has no Task.
    if (isTask(controller)) this.tasks?.add(controller);
  }

  /**
   * The booking moved to another api (a provider upgraded after this element,
   * or the element's own endpoint changed): what was loaded came from the old
   * one, so every load that has run runs again, now from the new one. Called
   * by the booking controller; a change of only the provider's other settings
   * (language, currency) keeps the api and loads nothing again.
   * @internal
   */
  bookingApiChanged(): void {
    for (const task of this.tasks) {
      if (task.status !== TASK_INITIAL && task.autoRun !== false) void task.run();
    }
  }

  /** Parts being loaded: `updateComplete` waits for them (and the render they bring). */
  private readonly loading = new Set<Promise<unknown>>();

  /**
   * While the visitor's language loads (a lazy chunk), wait for it: one render in the right
   * language. A load that hangs holds nothing up for more than a few seconds (the element then
   * renders in the language it has, and again when the new one arrives).
   */
  protected override scheduleUpdate(): void | Promise<unknown> {
    const loading = localeLoading();
    if (!loading) return super.scheduleUpdate();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, LOCALE_PATIENCE_MS);
    });
    return Promise.race([loading, patience]).then(() => {
      clearTimeout(timer);
      super.scheduleUpdate();
    });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const lang = intlLocale(this.bookingController.booking.config.locale);
    if (this.getAttribute('lang') !== lang) this.setAttribute('lang', lang);
  }

  /** Fire a public event (bubbling, composed) after the current render. */
  protected async emit<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): Promise<void> {
    await this.updateComplete;
    this.dispatchEvent(bookingEvent(type, detail));
  }

  /**
   * A part of the element its first view does not need (a dynamic import, so
   * the script-tag bundle fetches it only then). The returned function gives
   * the part once it is loaded, else starts loading it (once) and gives
   * undefined; the element renders again when it arrives. A failed load is
   * reported on the console and tried again at the next call.
   */
  protected lazy<T>(load: () => Promise<T>): () => T | undefined {
    let part: T | undefined;
    let pending: Promise<unknown> | undefined;
    return () => {
      if (part === undefined && !pending) {
        const loaded = load().then(
          (value) => {
            part = value;
            this.requestUpdate();
          },
          (error: unknown) => console.error(`stagedoor: a part of <${this.localName}> could not be loaded`, error),
        );
        pending = loaded.finally(() => {
          this.loading.delete(pending as Promise<unknown>);
          pending = undefined;
        });
        this.loading.add(pending);
      }
      return part;
    };
  }

  /**
   * Styles of a later part (its view): added to the element's own (constructed
   * stylesheets, after those of `static styles`, so they win as if listed
   * last there), once. The first view's styles stay in `static styles`.
   */
  protected addStyles(styles: CSSResult): void {
    const root = this.renderRoot;
    const sheet = styles.styleSheet;
    if (!(root instanceof ShadowRoot) || !sheet || root.adoptedStyleSheets.includes(sheet)) return;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    askViewportAgain([sheet]);
  }

  /** @internal Lit's, asking the viewport media rules anew (see askViewportAgain). */
  override connectedCallback(): void {
    super.connectedCallback();
    if (this.renderRoot instanceof ShadowRoot) askViewportAgain(this.renderRoot.adoptedStyleSheets);
  }

  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    while (this.loading.size) {
      await Promise.all(this.loading);
      done = await super.getUpdateComplete();
    }
    return done;
  }
}
