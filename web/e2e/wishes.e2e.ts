/**
 * Alerts that matter (issue 39) against the real stack: Wendy saves a wish for JFK in the Wishes
 * dialog and turns on push; Otto offers a JFK trip that could take her trip, from Manage Trip;
 * Wendy's open app counts the alert on the bell at once (the event stream, no reload), her service
 * worker shows the push titled with the wish, the bell names the wish, and opening it marks it read
 * on every device; her wish shows the
 * matching offer; she sets quiet hours and lets urgent offers through in Notification Preferences,
 * saved in her browser's time zone. Every screen is saved at 1280 and 390 px
 * (web/e2e/screenshots/<screen>-<width>.png); at 390 px nothing may scroll sideways.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { BellList, NotificationPreferences, Wish } from '@crewswap/proto';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { startLocalPushService, type LocalPushService } from './pushService';
import {
  BASE_URL,
  confirmDialog,
  fillDate,
  launchBrowser,
  ok,
  openHeaderAction,
  openNotificationPreferences,
  recordApiCalls,
  showPush,
  shotsAtBothWidths,
  signUpByApi,
  tripBody,
  until,
  useLocalPushService,
  whatThePageShowed,
  workerRegistration,
} from './support';

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

const today = londonToday();
const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
// Wendy's browser clock: quiet hours are kept in the pilot's own time zone, taken from it.
const WENDY_ZONE = 'America/New_York';

// Days no other journey uses (+170 to +180): the journeys share one stack, and Otto's offer must
// not turn up in another pilot's Find swaps.
const trip = (start: string, end: string, from: number, to: number, route: string) => tripBody(today, start, end, from, to, route);
const pilot = (page: Page, firstName: string, lastName: string) => signUpByApi(page, { firstName, lastName, tag: 'wish' });
const shots = shotsAtBothWidths;

describe('alerts that matter: a wish, the offer that answers it, the bell, quiet hours', () => {
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let wendy: Page;
  let otto: Page;
  let push: LocalPushService;
  // Wendy's DevTools session and service worker, for handing it the pushes that reach her.
  let cdp: CDPSession;
  let registrationId: string;
  const wishFrom = addDays(today, 168);
  const wishTo = addDays(today, 178);

  const open = async (viewport: { width: number; height: number }, timezoneId?: string) => {
    const context = await browser.newContext({ viewport, baseURL: process.env.BASE_URL, ...(timezoneId ? { timezoneId } : {}) });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    recordApiCalls(page);
    return page;
  };

  before(async () => {
    browser = await launchBrowser();
    push = await startLocalPushService();
    wendy = await open(DESK, WENDY_ZONE);
    await wendy.context().grantPermissions(['notifications'], { origin: BASE_URL });
    await useLocalPushService(wendy.context(), push.subscription);
    otto = await open(PHONE);
    await pilot(wendy, 'Wendy', 'Wisher');
    await pilot(otto, 'Otto', 'Offerer');
    await ok(wendy, 'POST', '/api/trips', trip('VS971', 'VS972', 171, 173, 'LAX'));
    await ok(otto, 'POST', '/api/trips', trip('VS973', 'VS974', 170, 172, 'JFK'));
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    contexts = [];
    await browser?.close();
    await push?.close();
  });

  test('Wendy saves a wish for JFK on her dates in the Wishes dialog', async () => {
    await wendy.goto('/');
    await wendy.getByRole('article', { name: /^Trip VS971\/VS972/ }).waitFor();
    await openHeaderAction(wendy, 'Wishes');
    const dialog = wendy.getByRole('dialog', { name: 'Wishes' });
    await dialog.getByText('No wishes yet').waitFor();
    await dialog.getByRole('button', { name: 'Add Wish' }).click();
    const destinations = dialog.locator('#wish-destinations');
    await destinations.click();
    await destinations.pressSequentially('JFK');
    await destinations.press('Enter');
    await fillDate(dialog.getByLabel('From'), wishFrom);
    await fillDate(dialog.getByLabel('To', { exact: true }), wishTo);
    await shots(wendy, 'wish-form');
    await dialog.getByRole('button', { name: 'Save Wish' }).click();
    const wish = dialog.getByTestId('wish');
    await wish.getByText('0 matching offers').waitFor();
    // Dates in numbers are MM/dd/yyyy (admin spec section 9).
    await wish.getByText(`${usDate(wishFrom)} to ${usDate(wishTo)}`).waitFor();
    const saved = await ok<Wish[]>(wendy, 'GET', '/api/notifications/wishes');
    assert.deepEqual(
      saved.map(({ destinations, startDate, endDate }) => ({ destinations, startDate, endDate })),
      [{ destinations: ['JFK'], startDate: wishFrom, endDate: wishTo }],
    );
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('Wendy turns on push on her laptop, under the bell', async () => {
    // The worker controls the page once it has activated (it claims open pages).
    await wendy.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    cdp = await wendy.context().newCDPSession(wendy);
    registrationId = await workerRegistration(cdp);
    await openNotificationPreferences(wendy);
    const dialog = wendy.getByRole('dialog', { name: 'Notification Preferences' });
    await dialog.getByRole('switch', { name: 'Enable Push' }).click();
    await dialog.getByLabel('Push status: Enabled').waitFor();
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('Otto offers a JFK trip that could take Wendy’s trip, from Manage Trip', async () => {
    await otto.goto('/');
    const manage = otto.getByRole('dialog', { name: 'Manage Trip' });
    await otto.getByRole('article', { name: /^Trip VS973\/VS974/ }).getByRole('button', { name: 'Keep / Swap' }).click();
    await manage.getByLabel('Swap description').fill('Any west coast trip that week');
    await manage.getByRole('button', { name: 'Swap', exact: true }).click();
    const offered = confirmDialog(otto, 'Trip Offered for Swap');
    await offered.getByRole('button', { name: 'OK' }).click();
    await offered.waitFor({ state: 'detached' });
    await manage.locator('[data-tone="offered"]').waitFor();
  });

  test('Wendy’s open app counts the alert on the bell at once, without a reload', async () => {
    // Swaps hears of the offer from trips' events, notifications writes the alert to the bell and
    // the event stream says so. Nothing else asks: no reload, no focus, and the push is not yet
    // handed to her service worker (whose word would also refresh the bell).
    await wendy.getByRole('button', { name: 'Alerts, 1 unread' }).waitFor({ timeout: 30_000 });
    const alert = (await ok<BellList>(wendy, 'GET', '/api/notifications/bell')).entries.find((entry) => entry.reason === 'wish');
    assert.ok(alert, 'the wish alert is in the bell');
    assert.match(alert.title, /^Swap offer for your wish JFK/);
    assert.match(alert.body, /^Otto Offerer offers VS973\/VS974 JFK/);
  });

  test('Wendy’s service worker shows the push, its title naming the wish', async () => {
    const received = await push.nextPush();
    const payload = JSON.parse(received.plaintext) as { kind: string; title: string; body: string; url: string; tag: string };
    assert.match(payload.title, /^Swap offer for your wish JFK/);
    const shown = await showPush(wendy, cdp, registrationId, received.plaintext);
    assert.deepEqual(shown, { title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url, kind: payload.kind } });
  });

  test('Wendy’s bell names her wish; opening it marks it read on every device', async () => {
    const bell = wendy.getByRole('button', { name: 'Alerts, 1 unread' });
    await bell.waitFor();
    await shots(wendy, 'bell-unread');

    await bell.click();
    const list = wendy.getByRole('list', { name: 'Alerts' });
    const entry = list.getByRole('listitem').filter({ hasText: 'Swap offer for your wish JFK' });
    await entry.getByText('Wish', { exact: true }).waitFor();
    await entry.getByText('New', { exact: true }).waitFor();
    await entry.getByText('Otto Offerer offers VS973/VS974 JFK').waitFor();
    await shots(wendy, 'bell-list');
    // Read on the server, so on every device: the count is gone.
    await until('the alert read', async () => ((await ok<BellList>(wendy, 'GET', '/api/notifications/bell')).unread === 0 ? true : undefined));
    await wendy.getByRole('button', { name: 'Alerts', exact: true }).waitFor();
    const panel = wendy.getByRole('dialog', { name: 'Alerts' });
    await panel.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  test('the wish shows the offer that matches it', async () => {
    await openHeaderAction(wendy, 'Wishes');
    const dialog = wendy.getByRole('dialog', { name: 'Wishes' });
    await dialog.getByTestId('wish').getByText('1 matching offer', { exact: true }).waitFor();
    await shots(wendy, 'wishes-matching');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('Wendy sets quiet hours and turns urgent offers off in Notification Preferences, from the bell', async () => {
    await openNotificationPreferences(wendy);
    const dialog = wendy.getByRole('dialog', { name: 'Notification Preferences' });
    const quiet = dialog.getByRole('switch', { name: 'Quiet Hours' });
    const urgent = dialog.getByRole('switch', { name: 'Urgent Offers' });
    await quiet.waitFor();
    assert.equal(await quiet.isChecked(), false);
    assert.equal(await urgent.isChecked(), true);
    await quiet.click();
    await dialog.getByLabel('Quiet hours start').waitFor();
    await dialog.getByText(`Times are in ${WENDY_ZONE}.`).waitFor();
    await urgent.click();
    await until('the preferences saved', async () => {
      const prefs = await ok<NotificationPreferences>(wendy, 'GET', '/api/notifications/preferences');
      return prefs.quietHours && !prefs.urgent ? prefs : undefined;
    }).then((prefs) => assert.deepEqual(prefs.quietHours, { start: '22:00', end: '07:00', timeZone: WENDY_ZONE }));
    // The 'Preferences Updated' toasts would sit over the sheet's top on a phone.
    for (const close of await wendy.locator('.ant-notification-notice-close').all()) await close.click().catch(() => {});
    await until('the toasts closed', async () => ((await wendy.locator('.ant-notification-notice').count()) === 0 ? true : undefined));
    // Both answers are in: the switches show what was saved.
    await until('the switches as saved', async () => ((await quiet.isChecked()) && !(await urgent.isChecked()) ? true : undefined));
    await shots(wendy, 'alert-preferences');
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Saved: they are as she left them when she comes back.
    await wendy.reload();
    await openNotificationPreferences(wendy);
    await dialog
      .getByLabel('Quiet hours start')
      .waitFor()
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\nThe dialog showed: ${await dialog.innerText()}\n${await whatThePageShowed(wendy)}`);
      });
    assert.equal(await dialog.getByRole('switch', { name: 'Quiet Hours' }).isChecked(), true);
    assert.equal(await dialog.getByRole('switch', { name: 'Urgent Offers' }).isChecked(), false);
  });
});
