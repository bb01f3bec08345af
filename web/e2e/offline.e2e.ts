import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BASE_URL, keptCacheHolds, launchBrowser, ok, openHeaderAction, PHONE, pilotData, register, screenshot } from './support';

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function trip(start: string, end: string, from: number) {
  return { flightNoStart: start, flightNoEnd: end, aircraft: 'A350', route: 'JFK', startDate: inDays(from), endDate: inDays(from + 2) };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A trip added to the pilot's roster from outside the page (another device), with the page's session. */
async function addTripElsewhere(context: BrowserContext, body: ReturnType<typeof trip>): Promise<void> {
  const cookie = (await context.cookies(BASE_URL)).map(({ name, value }) => `${name}=${value}`).join('; ');
  const added = await fetch(`${BASE_URL}/api/trips`, {
    method: 'POST',
    headers: { cookie, origin: BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(added.ok, `POST /api/trips answered ${added.status}: ${await added.text()}`);
}

describe('the app without a network', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: PHONE, baseURL: BASE_URL });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    if (process.env.E2E_LOGS) page.on('console', (message) => console.log(`[page] ${message.text()}`));
    await register(page, pilotData('Offline'));
    await ok(page, 'POST', '/api/trips', trip('VS901', 'VS902', 10));
  });
  after(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
  });

  test('opens offline on the trips the pilot saw, and catches up by itself back online', async () => {
    await page.reload();
    const first = page.getByRole('article', { name: /^Trip VS901\/VS902/ });
    await first.waitFor();
    // The service worker holds the app's code once it controls the page; the data is the page's own.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await until(() => keptCacheHolds(page, 'VS901'), 'the trips kept in IndexedDB');

    await context.setOffline(true);
    await page.reload();
    await first.waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'Offline' });
    assert.match((await banner.textContent()) ?? '', /Offline — showing what you saw at \d\d:\d\d/);
    assert.equal(await page.getByRole('button', { name: 'Refresh trips' }).isDisabled(), true, 'refresh needs the server');
    await screenshot(page, 'offline-trips-phone');

    // Meanwhile the pilot's roster changes elsewhere (another device, the email import).
    await addTripElsewhere(context, trip('VS903', 'VS904', 20));

    await context.setOffline(false);
    await page.getByRole('article', { name: /^Trip VS903\/VS904/ }).waitFor();
    await banner.waitFor({ state: 'detached' });
  });

  test('on a network that reaches nothing while the phone says it is online (hotel wifi), the app says it is offline and comes back by itself', async () => {
    await until(() => keptCacheHolds(page, 'VS903'), 'the trips kept');
    // Connected to something that answers nothing: the browser still says it is online.
    const nothingAnswers = '**/api/**';
    await context.route(nothingAnswers, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.getByRole('article', { name: /^Trip VS903\/VS904/ }).waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'Offline' });
    await banner.waitFor();
    assert.equal(await page.evaluate(() => navigator.onLine), true, 'the browser believes it is online');
    assert.match((await banner.textContent()) ?? '', /Offline — showing what you saw at \d\d:\d\d/);
    assert.equal(await page.getByRole('button', { name: 'Refresh trips' }).isDisabled(), true, 'refresh needs the server');
    assert.equal(await page.getByRole('alert').filter({ hasText: 'Failed to load trips' }).count(), 0, 'the banner says it, not a failure');
    await screenshot(page, 'offline-hotel-wifi-phone');
    // A view never opened online has nothing kept: it says so rather than showing no offers.
    await openHeaderAction(page, 'Calendars');
    await page.getByRole('dialog', { name: 'Choose Calendar View' }).getByRole('button', { name: 'Swap Calendar' }).click();
    const swapCalendar = page.getByRole('dialog', { name: 'Swap Calendar' });
    await swapCalendar.getByText('Needs a connection: you are offline.').waitFor();
    await screenshot(page, 'offline-not-kept-phone');
    await swapCalendar.getByRole('button', { name: 'Close' }).last().click();
    await swapCalendar.waitFor({ state: 'detached' });

    await addTripElsewhere(context, trip('VS905', 'VS906', 30));

    // The server answers again: within one probe (10 s) the app is online and shows the new trip.
    await context.unroute(nothingAnswers);
    await page.getByRole('article', { name: /^Trip VS905\/VS906/ }).waitFor({ timeout: 30_000 });
    await banner.waitFor({ state: 'detached' });
  });

  test('logging out leaves nothing of the pilot in the kept cache', async () => {
    await until(() => keptCacheHolds(page, 'VS905'), 'the new trip kept');
    await openHeaderAction(page, 'Logout');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    await until(
      () =>
        page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              if (localStorage.getItem('crewswap-cache-owner')) return resolve(false);
              const opening = indexedDB.open('keyval-store');
              opening.onsuccess = () => {
                const counting = opening.result.transaction('keyval').objectStore('keyval').count();
                counting.onsuccess = () => resolve(counting.result === 0);
              };
            }),
        ),
      'the kept cache emptied',
    );
  });
});
