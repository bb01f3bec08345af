import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Locator, type Page } from 'playwright-core';
import { addDays } from '@crewswap/proto/browser';
import type { LocalPushService } from './pushService';

export const BASE_URL = required('BASE_URL').replace(/\/$/, '');
export const MAIL_OUTBOX_DIR = required('MAIL_OUTBOX_DIR');
export const SCREENSHOTS = new URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SCREENSHOTS, { recursive: true });

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set (see scripts/e2e.ts)`);
  return value;
}

/** Debian's Chromium, never a downloaded browser; playwright gives each launch a fresh profile. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  recordApiCalls(page);
  return page;
}

/** The page's last API answers and browser errors, newest last: what a failed step's message shows. */
const apiCalls = new WeakMap<Page, string[]>();
const KEPT_API_CALLS = 25;

/** Keeps the page's last API answers, page errors and console errors for whatThePageShowed (newPage does this itself). */
export function recordApiCalls(page: Page): void {
  const calls: string[] = [];
  apiCalls.set(page, calls);
  const started = Date.now();
  const note = (line: string) => {
    calls.push(`+${Date.now() - started} ms ${line}`);
    if (calls.length > KEPT_API_CALLS) calls.shift();
  };
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/')) note(`${response.request().method()} ${url.pathname} ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) note(`${request.method()} ${url.pathname} failed: ${request.failure()?.errorText ?? 'no answer'}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console error: ${message.text().slice(0, 200)}`);
  });
}

/**
 * What the page showed instead, and the API answers that led there: a toast that said why has
 * long gone by the time a wait times out, so the answers are the evidence.
 */
export async function whatThePageShowed(page: Page): Promise<string> {
  const text = (await page.locator('body').innerText().catch(() => '')).slice(0, 600);
  return `The page showed: ${text}\nIts last API answers:\n${(apiCalls.get(page) ?? []).join('\n')}`;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** A run-unique number, so registrations never clash with earlier runs against the same stack. */
export function unique(): string {
  return String(Date.now()).slice(-6);
}

/** The newest verification code mailed to `email` (waits for the mail to arrive). */
export function verificationCode(email: string, since: number, timeoutMs = 15_000): Promise<string> {
  return mailed(email, since, /verification code is:?\s+([A-Za-z0-9]{6,20})\b/i, timeoutMs);
}

/** The newest temporary password mailed to `email` (after 5 failed logins or Forgot Password). */
export function temporaryPassword(email: string, since: number, timeoutMs = 15_000): Promise<string> {
  return mailed(email, since, /temporary password is:?\s+(\S+)/i, timeoutMs);
}

/** The first group of `pattern` in the newest mail to `email` sent after `since`. */
async function mailed(email: string, since: number, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = readdirSync(MAIL_OUTBOX_DIR, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.eml'))
      .map((name) => join(MAIL_OUTBOX_DIR, name))
      .filter((path) => statSync(path).mtimeMs >= since - 1000)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      if (!new RegExp(`^To:.*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(text)) continue;
      const value = pattern.exec(decodeMail(text))?.[1];
      if (value) return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No mail matching ${pattern} for ${email} in ${MAIL_OUTBOX_DIR}`);
}

/** Enough MIME for a code: headers dropped, quoted-printable and base64 parts decoded. */
function decodeMail(raw: string): string {
  const body = raw.split(/\r?\n\r?\n/).slice(1).join('\n');
  const base64 = body.match(/^[A-Za-z0-9+/=\r\n]{40,}$/m)?.[0];
  const decoded = base64 ? Buffer.from(base64.replace(/\s/g, ''), 'base64').toString('utf8') : '';
  return `${body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))}\n${decoded}`;
}

// Steps the journeys share.

export interface Registration {
  firstName: string;
  lastName: string;
  employeeId: string;
  prefix: string;
  password: string;
}

export function pilotData(tag: string): Registration {
  const id = unique();
  return {
    firstName: 'Erin',
    lastName: `${tag}-Tester`,
    employeeId: `${(Number(id) + tag.charCodeAt(0)) % 1_000_000}`.padStart(6, '7'),
    prefix: `e2e.${tag.toLowerCase()}.${id}`,
    password: 'secret-pass-1',
  };
}

export async function chooseOption(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.locator('.ant-select-item-option', { hasText: option }).first().click();
}

/** Registers through the form, reads the code from the outbox and verifies: ends on the trips page. */
export async function register(page: Page, pilot: Registration) {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('First Name').fill(pilot.firstName);
  await page.getByLabel('Last Name').fill(pilot.lastName);
  await page.getByLabel('Employee ID').fill(pilot.employeeId);
  await page.getByLabel('Phone').fill('+447700900123');
  await page.getByLabel('Email').fill(pilot.prefix);
  await chooseOption(page, 'Rank', 'First Officer (FO)');
  await chooseOption(page, 'Fleet', 'A350');
  await chooseOption(page, 'Base', 'LHR');
  await page.getByLabel('Password', { exact: true }).fill(pilot.password);
  await page.getByLabel('Confirm Password').fill(pilot.password);
  const since = Date.now();
  await page.getByRole('button', { name: 'Register Pilot' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm your ID and Email' });
  await confirm.getByText(pilot.employeeId).waitFor();
  // A click sent while the dialog still zooms in can miss its button (seen once in CI: no verification dialog followed).
  await settle(page);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  const verify = page.getByRole('dialog', { name: 'VS Pilot Verification' });
  await verify.waitFor();
  const email = await verify.locator('strong').first().textContent();
  assert.ok(email?.startsWith(pilot.prefix), `verification is for ${email}`);
  await verify.getByLabel('Verification Code').fill(await verificationCode(email!, since));
  await verify.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: /^Edit My Details/ }).waitFor();
}

export async function addTrip(page: Page, trip: { start: string; end: string; route: string; from: string; to: string }) {
  await openHeaderAction(page, 'Add Trip');
  const dialog = page.getByRole('dialog', { name: 'Add New Trip' });
  await dialog.getByLabel('Start Flight').fill(trip.start);
  await dialog.getByLabel('End Flight').fill(trip.end);
  await dialog.getByLabel('Route').fill(trip.route);
  await fillDate(dialog.getByLabel('Start Date'), trip.from);
  await fillDate(dialog.getByLabel('End Date'), trip.to);
  return dialog;
}

/**
 * Types a day ('YYYY-MM-DD') into a date picker as a pilot does: MM/DD/YYYY (the spec's date
 * format), then Enter; then leaves the field, so that its calendar closes even when the day was
 * already chosen (Enter then changes nothing, and the calendar would stay over the dialog's buttons).
 */
export async function fillDate(field: Locator, iso: string) {
  await field.fill(`${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`);
  await field.press('Enter');
  await field.blur();
  await field.page().locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').waitFor({ state: 'detached' });
}

/** A confirmation or notice (antd's confirm dialogs carry their title in the body). */
export function confirmDialog(page: Page, title: string) {
  return page.locator('.ant-modal-confirm').filter({ hasText: title });
}

/** The header's actions are buttons on a desktop and a menu on a phone. */
export async function openHeaderAction(page: Page, name: string) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) {
    await menu.click();
    // As in openNotificationPreferences: a click while the menu still slides in can miss its item.
    await page.getByRole('menuitem', { name }).waitFor();
    await settle(page);
    await page.getByRole('menuitem', { name }).click();
  } else {
    await page.getByRole('button', { name }).click();
  }
}

/** Notification Preferences are at the top of the bell's list of alerts. */
export async function openNotificationPreferences(page: Page) {
  await page.getByRole('button', { name: /^Alerts/ }).click();
  // Clicked while the list still zooms in, the click can miss the button: seen in local runs, the
  // list stayed open and the preferences' code was never fetched; a second click opened them.
  await page.getByRole('dialog', { name: 'Alerts' }).waitFor();
  await settle(page);
  await page.getByRole('button', { name: 'Notification Preferences' }).click();
  // Its push switch shows whatever the preferences' answer: if it does not, say what the page showed.
  await page
    .getByRole('dialog', { name: 'Notification Preferences' })
    .getByRole('switch', { name: 'Enable Push' })
    .waitFor()
    .catch(async (error: unknown) => {
      const dialogs = await page.getByRole('dialog').evaluateAll((found) => found.map((dialog) => (dialog.textContent ?? '').slice(0, 120)));
      throw new Error(`${String(error)}\nOpen dialogs: ${JSON.stringify(dialogs)}\n${await whatThePageShowed(page)}`);
    });
  // The same for what the caller clicks next in it: a tap on Enable Push lost that way would
  // explain a CI failure seen once, neither 'Push status: Enabled' nor an error after the tap.
  await settle(page);
}

/** Waits for antd's open and close animations (zoom, fade, slide) to end. */
export async function settle(page: Page) {
  const moving = () => {
    const pattern = /^ant-([\w-]+-)?(zoom|fade|move-up|slide-up|slide-down|show-help|show-help-item)-(appear|enter|leave)(-(prepare|start|active))?$/;
    return [...document.querySelectorAll('[class*="ant-"]')].flatMap((element) =>
      [...element.classList].filter((name) => pattern.test(name)),
    );
  };
  const deadline = Date.now() + 3000;
  let classes = await page.evaluate(moving);
  while (classes.length > 0) {
    if (Date.now() > deadline) throw new Error(`still moving: ${classes.join(' ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    classes = await page.evaluate(moving);
  }
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** A call from inside the page, with the page's cookies; the browser adds the Origin header itself. */
export async function api<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

/** The same call, which must succeed: its answer's body. */
export async function ok<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await api<T>(page, method, path, body);
  assert.ok(answer.status < 300, `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export const PILOT_PASSWORD = 'secret-pass-1';

let signUps = 0;
/**
 * A pilot registered, verified with the mailed code and signed in, all through the API in
 * `page`'s session: an A350 pilot at LHR unless `extra` says otherwise. `tag` starts the email, so
 * a journey's pilots are easy to find in the mail outbox.
 */
export async function signUpByApi(
  page: Page,
  who: { firstName: string; lastName: string; tag: string; rank?: 'CP' | 'FO'; extra?: Record<string, unknown> },
): Promise<{ id: string; email: string; employeeId: string; phone: string }> {
  // A page of the app's origin, for its cookies; not the app itself, which would ask who is signed in.
  await page.goto('/no-such-page');
  signUps += 1;
  // Journeys share one stack and run one after another: the clock and a counter keep ids apart.
  const employeeId = String((Number(unique()) * 13 + signUps * 7561) % 1_000_000).padStart(6, '3');
  const phone = '+447700900' + String(100 + (signUps % 900));
  const since = Date.now();
  const answer = await ok<{ pilot: { id: string; email: string } }>(page, 'POST', '/api/auth/register', {
    firstName: who.firstName,
    lastName: who.lastName,
    employeeId,
    emailPrefix: `${who.tag}.${who.lastName.toLowerCase()}.${employeeId}`,
    phone,
    rank: who.rank ?? 'CP',
    fleet: 'A350',
    base: 'LHR',
    apic: true,
    ltc: false,
    usualReq: true,
    password: PILOT_PASSWORD,
    confirmPassword: PILOT_PASSWORD,
    ...who.extra,
  });
  const { id, email } = answer.pilot;
  await ok(page, 'POST', '/api/auth/verify-email', { email, code: await verificationCode(email, since) });
  await ok(page, 'POST', '/api/auth/login', { email, password: PILOT_PASSWORD });
  return { id, email, employeeId, phone };
}

/** A trip as POST /api/trips takes it, `from` and `to` days after `today`. */
export function tripBody(today: string, start: string, end: string, from: number, to: number, route: string, aircraft = 'A350') {
  return { flightNoStart: start, flightNoEnd: end, aircraft, route, startDate: addDays(today, from), endDate: addDays(today, to) };
}

/**
 * Saves `<screen>-1280.png` and `<screen>-390.png` of what is open (at 390 px nothing may scroll
 * sideways), and goes back to the page's width.
 */
export async function shotsAtBothWidths(page: Page, screen: string) {
  const back = page.viewportSize() ?? DESKTOP;
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await settle(page);
    await page.screenshot({ path: join(SCREENSHOTS, `${screen}-${size.width}.png`) });
    if (size.width < 768) {
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= size.width, `${screen}: the page is ${scrollWidth} px wide at ${size.width} px`);
    }
  }
  await page.setViewportSize(back);
  await settle(page);
}

/** `probe()` until it answers something, for at most `timeoutMs`; the error names `what`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether the page's kept cache (IndexedDB, web/src/api/persist.ts) holds `text` for the signed-in pilot. */
export function keptCacheHolds(page: Page, text: string): Promise<boolean> {
  return page.evaluate(
    (wanted) =>
      new Promise<boolean>((resolve) => {
        const owner = localStorage.getItem('crewswap-cache-owner');
        if (!owner) return resolve(false);
        const opening = indexedDB.open('keyval-store');
        opening.onerror = () => resolve(false);
        opening.onsuccess = () => {
          try {
            const reading = opening.result.transaction('keyval').objectStore('keyval').get(`crewswap-cache:${owner}`);
            reading.onsuccess = () => resolve(JSON.stringify(reading.result ?? null).includes(wanted));
            reading.onerror = () => resolve(false);
          } catch {
            resolve(false);
          }
        };
      }),
    text,
  );
}

// Push, end to end in Chromium with the stand-in push service (pushService.ts).

/**
 * Headless Chromium cannot subscribe at its vendor's push service (no network here), so its
 * PushManager hands out the test push service's subscription instead: same shape, real keys held
 * by the test. Everything after the browser (the app, the server, push-sender, the encryption, the
 * service worker) is the real thing.
 */
export function useLocalPushService(context: BrowserContext, subscription: LocalPushService['subscription']) {
  // A string, not a function: tsx would wrap the function's inner names in a helper the page lacks.
  return context.addInitScript(`(() => {
    const sub = ${JSON.stringify(subscription)};
    const decode = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
    const KEPT = 'test-push-service-subscribed';
    let current = null;
    const make = (options) => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      options,
      getKey: (name) => decode(sub.keys[name]),
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      unsubscribe: async () => { current = null; localStorage.removeItem(KEPT); return true; },
    });
    // A browser keeps its subscription across page loads.
    if (localStorage.getItem(KEPT)) current = make({ userVisibleOnly: true });
    PushManager.prototype.subscribe = async function (options) {
      if (Notification.permission !== 'granted') throw new DOMException('test push service: notifications not granted', 'NotAllowedError');
      current = current || make(options || {});
      localStorage.setItem(KEPT, '1');
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
  })();`);
}

/** The service worker's registration id, for DevTools' push delivery. */
export async function workerRegistration(cdp: CDPSession): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((registration) => !registration.isDeleted && registration.scopeURL.startsWith(BASE_URL));
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

/** `read()` until it answers something, for at most `timeoutMs`. */
export async function poll<T>(read: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
}

/**
 * What a push service does with a push it received: wakes the worker with the decrypted message.
 * Answers the notification the service worker showed for it.
 */
export async function showPush(page: Page, cdp: CDPSession, registrationId: string, plaintext: string): Promise<ShownNotification> {
  const { title } = JSON.parse(plaintext) as { title: string };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(BASE_URL).origin, registrationId, data: plaintext });
  // Polled here: waitForFunction does not wait for an async predicate's answer.
  return poll(() =>
    page.evaluate(async (title) => {
      const all = await (await navigator.serviceWorker.ready).getNotifications();
      const found = all.find((n) => n.title === title);
      return found ? { title: found.title, body: found.body, tag: found.tag, data: found.data as unknown } : null;
    }, title),
  ).catch(async (error: unknown) => {
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      const shown = (await registration?.getNotifications())?.map((n) => n.title) ?? [];
      return { active: registration?.active?.state ?? null, waiting: registration?.waiting?.state ?? null, installing: registration?.installing?.state ?? null, permission: Notification.permission, shown };
    });
    throw new Error(`${String(error)}: no notification titled ${JSON.stringify(title)}; the worker: ${JSON.stringify(worker)}\n${await whatThePageShowed(page)}`);
  });
}
