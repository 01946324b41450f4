import { html, nothing, type TemplateResult } from 'lit';
import { msg } from '../i18n/msg.ts';

/**
 * The one error-with-retry block every element shows when something failed:
 * `part="error"` (an alert, read out when it appears) holding the sentence,
 * `part="error-message"` (from state/failure.ts), and `part="retry-button"`
 * when trying again may help. Its look is in shared.styles.ts (`.error`).
 */
/** The retry button's words, wherever one is offered. */
export const tryAgain = () => msg('Try again');

export function renderFailure(message: string, retry?: (() => unknown) | null, label: string = tryAgain()): TemplateResult {
  return html`<div part="error" class="error" role="alert">
    <p part="error-message">${message}</p>
    ${retry ? html`<button part="retry-button" type="button" @click=${retry}>${label}</button>` : nothing}
  </div>`;
}
