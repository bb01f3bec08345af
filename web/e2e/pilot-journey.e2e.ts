import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { addTrip, confirmDialog, launchBrowser, newPage, openHeaderAction, PHONE, pilotData, register, screenshot, whatThePageShowed } from './support';

describe('a pilot registers, adds and offers a trip, and another pilot finds it', () => {
  let browser: Browser;
  const offerer = pilotData('A');
  const finder = pilotData('B');
  const from = addDays(londonToday(), 10);
  const to = addDays(londonToday(), 12);
  let pageA: Page;
  let pageB: Page;

  before(async () => {
    browser = await launchBrowser();
    pageA = await newPage(browser);
    pageB = await newPage(browser, PHONE);
  });
  after(async () => {
    await browser?.close();
  });
  // The last screen of each pilot, to see where a failed step stopped.
  afterEach(async () => {
    await screenshot(pageA, 'journey-last-pilot-a').catch(() => {});
    await screenshot(pageB, 'journey-last-pilot-b').catch(() => {});
  });

  test('the login page shows the product and both tabs', async () => {
    await pageA.goto('/');
    await pageA.getByRole('heading', { name: 'CrewSwap' }).waitFor();
    await pageA.getByRole('tab', { name: 'Login' }).waitFor();
    await screenshot(pageA, 'journey-login-1280');
    const phone = await newPage(browser, PHONE);
    await phone.goto('/');
    await phone.getByRole('tab', { name: 'Register' }).click();
    await phone.getByLabel('Employee ID').waitFor();
    await screenshot(phone, 'journey-register-390');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'nothing scrolls sideways at 390 px');
    await phone.context().close();
  });

  test('any other path shows Page Not Found', async () => {
    await pageA.goto('/no-such-page');
    await pageA.getByText('Page Not Found').waitFor();
  });

  test('a pilot registers through the form and verifies the emailed code', async () => {
    await register(pageA, offerer);
    await pageA.getByText('No trips yet').waitFor();
    await screenshot(pageA, 'journey-empty-trips-1280');
  });

  test('typing LAXSFO as the route shows LAX-SFO and the trip is added', async () => {
    const dialog = await addTrip(pageA, { start: '7', end: '8', route: 'laxsfo', from, to });
    assert.equal(await dialog.getByLabel('Route').inputValue(), 'LAX-SFO');
    await dialog.getByLabel('Start Flight').click();
    assert.equal(await dialog.getByLabel('End Flight').inputValue(), '008', 'flight numbers are zero padded on blur');
    await screenshot(pageA, 'journey-add-trip-1280');
    await dialog.getByRole('button', { name: 'Add Trip' }).click();
    await pageA.getByRole('article', { name: /VS007\/VS008/ }).waitFor();
    await screenshot(pageA, 'journey-trips-1280');
  });

  test('an overlapping trip gets the server’s conflict message', async () => {
    const dialog = await addTrip(pageA, { start: '100', end: '101', route: 'JFK', from: addDays(from, 1), to: addDays(to, 1) });
    await dialog.getByRole('button', { name: 'Add Trip' }).click();
    await dialog.getByText(/Trip dates conflict with existing trip: VS007\/VS008/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the pilot offers the trip for swap', async () => {
    const card = pageA.getByRole('article', { name: /VS007\/VS008/ });
    await card.getByRole('button', { name: 'Keep / Swap' }).click();
    const manage = pageA.getByRole('dialog', { name: 'Manage Trip' });
    await manage.getByLabel('Swap description').fill('Looking for anything west coast');
    await manage.getByRole('button', { name: 'Swap' }).click();
    const notice = confirmDialog(pageA, 'Trip Offered for Swap');
    await notice.waitFor();
    await screenshot(pageA, 'journey-offered-1280');
    await notice.getByRole('button', { name: 'OK' }).click();
    await manage.getByRole('button', { name: 'Close' }).last().click();
    await card.getByText('S', { exact: true }).waitFor();
  });

  test('a second pilot on a phone finds the offer', async () => {
    await register(pageB, finder);
    const dialog = await addTrip(pageB, { start: '21', end: '22', route: 'JFK', from: addDays(from, 1), to: addDays(from, 3) });
    await dialog.getByRole('button', { name: 'Add Trip' }).click();
    const card = pageB.getByRole('article', { name: /VS021\/VS022/ });
    await card.getByRole('button', { name: 'Find Swaps' }).click();
    const offer = card.getByRole('button', { name: new RegExp(`FO ${offerer.firstName} ${offerer.lastName}`) }).first();
    await offer.waitFor();
    await screenshot(pageB, 'journey-find-swaps-390');
    await offer.click();
    const details = pageB.getByRole('dialog', { name: 'Swap Offer Details' });
    const link = await details.getByRole('link', { name: 'Chat on WhatsApp' }).getAttribute('href');
    assert.match(link ?? '', /^https:\/\/wa\.me\/\d+\?text=/);
    await screenshot(pageB, 'journey-swap-offer-details-390');
    await details.getByRole('button', { name: 'Close' }).first().click();
  });

  test('Edit My Details refuses a phone number starting with +0', async () => {
    await openHeaderAction(pageB, 'Edit My Details');
    const details = pageB.getByRole('dialog', { name: 'Edit My Details' });
    await details.getByLabel('Phone').fill('+0123456');
    await details.getByRole('button', { name: 'Update Profile' }).click();
    await pageB.getByText('Invalid Phone Number').waitFor();
    await screenshot(pageB, 'journey-edit-details-390');
    await details.getByRole('button', { name: 'Close' }).first().click();
  });

  test('deleting a trip removes its card', async () => {
    const card = pageA.getByRole('article', { name: /VS007\/VS008/ });
    await card.getByRole('button', { name: /Edit trip/ }).click();
    await pageA.getByRole('dialog', { name: 'Edit Trip' }).getByRole('button', { name: 'Delete' }).click();
    await confirmDialog(pageA, 'Confirm Delete Trip').getByRole('button', { name: 'Delete' }).click();
    await pageA.getByText('Trip Deleted').waitFor();
    await card.waitFor({ state: 'detached' });
  });

  test('logout returns to the login page', async () => {
    await openHeaderAction(pageA, 'Logout');
    await confirmDialog(pageA, 'Confirm Logout').getByRole('button', { name: 'Logout' }).click();
    await pageA.getByRole('tab', { name: 'Login' }).waitFor();
    assert.equal(new URL(pageA.url()).pathname, '/');
  });

  test('a session ended by a login elsewhere shows Logged In Elsewhere, told over the event stream', async () => {
    const login = async (page: Page, which: string) => {
      await page.goto('/');
      await page.getByLabel('Email').fill(offerer.prefix);
      await page.getByLabel('Password', { exact: true }).fill(offerer.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page
        .getByRole('button', { name: /^Edit My Details/ })
        .waitFor()
        .catch(async (error: unknown) => {
          // What the page said instead (a refusal, a spinner) is what tells a failure's cause.
          throw new Error(`${which}: ${String(error)}\n${await whatThePageShowed(page)}`);
        });
    };
    await login(pageA, 'the first page');
    const elsewhere = await newPage(browser);
    await login(elsewhere, 'the login elsewhere');
    // Nothing to click: the open page hears it from its event stream.
    await pageA.getByText('Logged In Elsewhere').waitFor();
    await screenshot(pageA, 'journey-logged-in-elsewhere-1280');
    await elsewhere.context().close();
  });
});
