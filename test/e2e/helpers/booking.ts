/**
 * What a visitor does with the elements, by keyboard (focus + Enter), through
 * locators that pierce shadow DOM: pick a performance, choose two seats side
 * by side that the service accepts, add them, fill in the checkout.
 */
import type { Locator, Page, Response } from 'playwright-core';

/** Open the first bookable performance of a calendar (month grid: open a day first; list: pick directly). */
export async function choosePerformance(calendar: Locator): Promise<void> {
  // The part names before issue 21's vocabulary too (day, performance): the benches walk a baseline build with this.
  const day = calendar.locator(':is([part~="day-button"], [part~="day"])[part~="has-performances"]:not([aria-disabled="true"])').filter({ visible: true }).first();
  const performance = calendar.locator(':is([part~="performance-button"], [part~="performance"]):not([part~="sold-out"])').filter({ visible: true }).first();
  await day.or(performance).first().waitFor();
  if (!(await performance.count())) await day.press('Enter');
  await performance.press('Enter');
}

const isPairValidation = (r: Response): boolean => {
  if (!r.url().includes('/SeatsSelectionValidation')) return false;
  const body = JSON.parse(r.request().postData() ?? '{}') as { TicketIds?: unknown[] };
  return body.TicketIds?.length === 2;
};

/**
 * Choose two neighbouring seats the service accepts (the single-seat rule may
 * refuse a pair: then both are let go and the next pair is tried), starting a
 * third of the way into the map. Returns false when no pair passed; on true,
 * the picker's "Add" is enabled.
 */
export async function chooseSeatPair(page: Page, picker: Locator): Promise<boolean> {
  const seats = picker.locator('[part~="seat-button"]:not([part~="in-basket"])');
  // The map paints first with only the focused seat focusable; the other seats' buttons follow a
  // frame later. Wait for them, or the count below is 1 and no pair is tried.
  await seats.nth(1).waitFor();
  const count = await seats.count();
  for (let k = Math.floor(count / 3); k < count - 1; k += 3) {
    await seats.nth(k).press('Enter');
    const validation = page.waitForResponse(isPairValidation);
    await seats.nth(k + 1).press('Enter');
    const result = (await (await validation).json()) as { SelectionValid: boolean };
    if (result.SelectionValid) {
      // "Add" is enabled once the picker has taken the service's answer.
      await picker.locator('[part~="add-button"][aria-disabled="false"]').first().waitFor();
      return true;
    }
    await seats.nth(k).press('Enter');
    await seats.nth(k + 1).press('Enter');
  }
  return false;
}

/** In <checkout-form>: tick the notices that need it and fill in the customer (the order is then ready to go to payment). */
export async function fillCheckout(form: Locator): Promise<void> {
  // The first field waits for the form; the notices render with it (counting them first could find none yet).
  await form.getByRole('textbox', { name: 'First name' }).fill('Ada');
  const notices = form.getByRole('group', { name: 'Before you book' }).getByRole('checkbox');
  for (let i = 0; i < (await notices.count()); i += 1) await notices.nth(i).check();
  await form.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
  await form.getByRole('textbox', { name: 'E-mail address' }).fill('ada@example.com');
  await form.getByRole('textbox', { name: /^Phone/ }).fill('+44 20 7946 0000');
}
