import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLocalPushService, type LocalPushService } from './pushService';
import {
  BASE_URL,
  DESKTOP,
  keptCacheHolds,
  launchBrowser,
  openNotificationPreferences,
  PHONE,
  pilotData,
  recordApiCalls,
  register,
  screenshot,
  settle,
  showPush,
  until,
  useLocalPushService,
  whatThePageShowed,
  workerRegistration,
} from './support';

const ROSTER_C = fileURLToPath(new URL('../../services/roster-ingest/test/fixtures/rosters/roster-c-lhr-b787-fo.ics_', import.meta.url));

describe('the installable app', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let push: LocalPushService;

  before(async () => {
    browser = await launchBrowser();
    push = await startLocalPushService();
    context = await browser.newContext({ viewport: DESKTOP, baseURL: BASE_URL });
    await context.grantPermissions(['notifications'], { origin: BASE_URL });
    await useLocalPushService(context, push.subscription);
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    recordApiCalls(page);
    if (process.env.E2E_LOGS) page.on('console', (message) => console.log(`[page] ${message.text()}`));
    await register(page, pilotData('Push'));
    // The worker controls the page once it has activated (it claims open pages).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  });
  after(async () => {
    await browser.close();
    await push.close();
  });

  test('/sw.js is served as JavaScript and never cached; the manifest names the product and its roster files', async () => {
    const worker = await page.request.get('/sw.js');
    assert.equal(worker.status(), 200);
    assert.match(worker.headers()['content-type'] ?? '', /javascript/);
    assert.equal(worker.headers()['cache-control'], 'no-cache');
    const manifest = await page.request.get('/manifest.webmanifest');
    assert.equal(manifest.headers()['cache-control'], 'no-cache');
    const body = (await manifest.json()) as { name: string; display: string; share_target: { action: string }; file_handlers: Array<{ action: string }>; icons: Array<{ src: string }> };
    assert.equal(body.name, 'CrewSwap');
    assert.equal(body.display, 'standalone');
    assert.equal(body.share_target.action, '/share-roster');
    assert.equal(body.file_handlers[0]!.action, '/upload-roster');
    for (const icon of body.icons) assert.equal((await page.request.get(icon.src)).status(), 200, icon.src);
  });

  test('a pilot turns on push under the bell, sends a test push, and the service worker shows it', async () => {
    await openNotificationPreferences(page);
    const dialog = page.getByRole('dialog', { name: 'Notification Preferences' });
    await dialog.getByLabel('Push status: Disabled').waitFor();
    await dialog.getByRole('switch', { name: 'Enable Push' }).click();
    const toast = page.locator('.ant-notification-notice');
    // Neither within the wait (seen once in CI): the message says what the page showed and asked.
    await Promise.race([dialog.getByLabel('Push status: Enabled').waitFor(), toast.filter({ hasText: 'Notification Error' }).waitFor()]).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await whatThePageShowed(page)}`);
    });
    assert.ok(await dialog.getByLabel('Push status: Enabled').isVisible(), `push not enabled: ${await toast.allTextContents()}`);
    await settle(page);
    await screenshot(page, 'notification-preferences-1280');

    const cdp = await context.newCDPSession(page);
    const registrationId = await workerRegistration(cdp);
    await dialog.getByRole('button', { name: /Send Test/ }).click();
    await page.getByText('Test Notification Sent').waitFor();
    const received = await push.nextPush();
    const payload = JSON.parse(received.plaintext) as { kind: string; title: string; body: string; url: string; tag: string };
    assert.equal(payload.kind, 'test');
    assert.equal(received.claims.aud, new URL(push.subscription.endpoint).origin);

    const shown = await showPush(page, cdp, registrationId, received.plaintext);
    assert.deepEqual(shown, { title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url, kind: 'test' } });
    await screenshot(page, 'push-received-1280');

    // A click on it brings the open window to the place it names. (Headless Chromium has no
    // notification to click: the worker is given the click event for the notification it showed.)
    await page.goto('/no-such-page');
    await page.getByText('Page Not Found').waitFor();
    const [worker] = context.serviceWorkers();
    assert.ok(worker, 'the service worker runs');
    await worker.evaluate(`(async () => {
      const [shown] = await self.registration.getNotifications({ tag: ${JSON.stringify(payload.tag)} });
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification: shown }));
    })()`);
    await page.waitForURL((url) => url.pathname + url.search === payload.url);
    await openNotificationPreferences(page);

    // Turning it off forgets the subscription on both sides: the next test push has nowhere to go.
    await dialog.getByRole('switch', { name: 'Enable Push' }).click();
    await dialog.getByLabel('Push status: Disabled').waitFor();
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/notifications/test', { method: 'POST', credentials: 'include' });
      return { status: response.status, body: (await response.json()) as unknown };
    });
    assert.notEqual(answer.status, 200, JSON.stringify(answer));
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  });

  test('a roster shared to the app (POST /share-roster) is taken by the service worker into the upload, and its trips are added', async () => {
    // The form a share sheet submits, per the manifest's share_target.
    await page.evaluate(() => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = '/share-roster';
      form.enctype = 'multipart/form-data';
      form.id = 'share';
      const input = document.createElement('input');
      input.type = 'file';
      input.name = 'roster';
      form.append(input);
      document.body.append(form);
    });
    await page.locator('#share input').setInputFiles(ROSTER_C);
    await Promise.all([page.waitForURL('**/share-roster'), page.evaluate(() => (document.getElementById('share') as HTMLFormElement).submit())]);
    const upload = page.getByRole('dialog', { name: 'Upload Roster' });
    await upload.getByText('9 trips added').waitFor({ timeout: 30_000 });
    await settle(page);
    await screenshot(page, 'share-roster-result-1280');
    await upload.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    assert.equal(await page.locator('.trip-card').count(), 9);
  });

  test('offline, the app still opens from the shell the service worker kept, on the trips the pilot saw', async () => {
    // The pilot's trips are kept (web/src/api/persist.ts) a moment after they show.
    await until('the trips kept', async () => ((await keptCacheHolds(page, 'VS025')) ? true : undefined));
    await context.setOffline(true);
    try {
      await page.reload();
      // Losing the network is not a logout: the signed-in pilot's kept trips show, not the login page.
      await page.getByRole('article', { name: /^Trip VS025\/VS026/ }).waitFor();
      assert.equal(await page.title(), 'CrewSwap');
    } finally {
      await context.setOffline(false);
    }
  });

  test('screens: Notification Preferences and the install prompt at 390 and 1280 px', async () => {
    await page.goto('/');
    for (const [viewport, width] of [[PHONE, 390], [DESKTOP, 1280]] as const) {
      await page.setViewportSize(viewport);
      await openNotificationPreferences(page);
      const dialog = page.getByRole('dialog', { name: 'Notification Preferences' });
      await dialog
        .getByRole('switch', { name: 'Swap Notifications' })
        .waitFor()
        .catch(async (error: unknown) => {
          // What the dialog showed instead (an error, a spinner) is what tells a failure's cause.
          await screenshot(page, `notification-preferences-failed-${width}`);
          throw new Error(`${String(error)}\nThe dialog showed: ${await dialog.innerText().catch(() => '(nothing)')}`);
        });
      await settle(page);
      if (width === 390) await screenshot(page, 'notification-preferences-390');
      await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // Chromium decides itself when to offer an install; the dialog is shown by giving it that signal.
      await page.evaluate(`window.dispatchEvent(Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => undefined,
        userChoice: Promise.resolve({ outcome: 'dismissed' }),
      }))`);
      const install = page.getByRole('dialog', { name: 'Install CrewSwap' });
      await install.getByText('for faster access, offline support, and push notifications').waitFor();
      await settle(page);
      await screenshot(page, `install-prompt-${width}`);
      await install.getByRole('button', { name: 'Cancel' }).click();
      await install.waitFor({ state: 'detached' });
    }

    const iphone = await browser.newContext({
      viewport: PHONE,
      baseURL: BASE_URL,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    });
    const ios = await iphone.newPage();
    await ios.goto('/');
    const steps = ios.getByRole('dialog', { name: 'Install CrewSwap' });
    await steps.getByText('Add to Home Screen').waitFor({ timeout: 15_000 });
    await settle(ios);
    await screenshot(ios, 'install-prompt-ios-390');
    await steps.getByRole('button', { name: 'Maybe Later' }).click();
    const dismissed = await ios.evaluate(() => localStorage.getItem('pwa-install-dismissed'));
    assert.ok(dismissed && Number(dismissed) > 0);
    await iphone.close();
  });
});
