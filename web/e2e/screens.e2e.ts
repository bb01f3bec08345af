/**
 * Every screen and dialog a pilot sees, photographed at 390 px and 1280 px wide against the real
 * stack (web/e2e/screenshots/<screen>-<width>.png), to be looked at. Data is set up through the
 * API from inside the page where the form is not what is being shown. At 390 px nothing may
 * scroll sideways. SHOT_TIMES=1 prints the time between screenshots (keep the file near 75 s);
 * AUDIT_TARGETS=1 lists controls under 44 px tall on the phone screens.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { api as sharedApi, fillDate, launchBrowser, ok as sharedOk, SCREENSHOTS, settle, temporaryPassword, unique, verificationCode } from './support';

// These journeys read many answers' fields in passing, so they take the bodies untyped.
type Loose = any;
const api = (page: Page, method: string, path: string, body?: unknown) => sharedApi<Loose>(page, method, path, body);
const ok = (page: Page, method: string, path: string, body?: unknown) => sharedOk<Loose>(page, method, path, body);

const WIDTHS = [390, 1280] as const;
const PASSWORD = 'secret-pass-1';
const TESTING_PASSWORD = 'letmein-crew';
const today = londonToday();

interface Person {
  firstName: string;
  lastName: string;
  employeeId: string;
  emailPrefix: string;
  email?: string;
}

let serial = 0;
function person(firstName: string, lastName: string): Person {
  serial += 1;
  const id = String((Number(unique()) * 7 + serial * 9973) % 1_000_000).padStart(6, '1');
  return { firstName, lastName, employeeId: id, emailPrefix: `scr.${lastName.toLowerCase()}.${id}` };
}

/** Registers, verifies with the mailed code and logs in, all through the API. */
async function registerByApi(page: Page, who: Person, extra: Record<string, unknown>): Promise<string> {
  const since = Date.now();
  const answer = await ok(page, 'POST', '/api/auth/register', {
    ...who,
    phone: '+447700900456',
    rank: 'CP',
    fleet: 'A350',
    base: 'LHR',
    password: PASSWORD,
    confirmPassword: PASSWORD,
    ...extra,
  });
  const email: string = answer.pilot.email;
  await ok(page, 'POST', '/api/auth/verify-email', { email, code: await verificationCode(email, since) });
  await ok(page, 'POST', '/api/auth/login', { email, password: PASSWORD });
  return email;
}

const trip = (start: string, end: string, from: number, to: number, route: string, more: Record<string, unknown> = {}) => ({
  flightNoStart: start,
  flightNoEnd: end,
  aircraft: 'A350',
  route,
  startDate: addDays(today, from),
  endDate: addDays(today, to),
  ...more,
});

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.locator('.ant-select-item-option', { hasText: option }).first().click();
}

function confirmDialog(page: Page, title: string): Locator {
  return page.locator('.ant-modal-confirm').filter({ hasText: title });
}

function card(page: Page, flights: string): Locator {
  return page.getByRole('article', { name: new RegExp(flights) });
}

async function openHeaderAction(page: Page, name: string) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) {
    await menu.click();
    await page.getByRole('menuitem', { name }).click();
  } else {
    await page.getByRole('button', { name }).click();
  }
}

/** Saves `<screen>-<width>.png`; at phone width the page must not scroll sideways. */
let lastShot = Date.now();
async function shot(page: Page, width: number, screen: string, options: { fullPage?: boolean } = {}) {
  if (process.env.SHOT_TIMES) console.error(`${screen}-${width} +${Date.now() - lastShot} ms`);
  lastShot = Date.now();
  await settle(page);
  await page.screenshot({ path: join(SCREENSHOTS, `${screen}-${width}.png`), fullPage: options.fullPage ?? false });
  if (width < 768 && process.env.AUDIT_TARGETS) {
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('button, a, input, [role="switch"], [role="tab"], .ant-select')]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          const style = getComputedStyle(element);
          const inSelect = element.closest('.ant-select') !== null && !element.classList.contains('ant-select');
          const inInput = element.closest('.ant-input-affix-wrapper, .ant-input-number') !== null;
          return box.width > 0 && box.height > 0 && box.height < 44 && style.visibility !== 'hidden' && !inSelect && !inInput;
        })
        .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 2).join('.')} "${(element.textContent ?? '').trim().slice(0, 20)}" ${Math.round(element.getBoundingClientRect().height)}px`),
    );
    if (small.length > 0) console.error(`${screen}: ${small.join(' | ')}`);
  }
  if (width < 768) {
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= width, `${screen}: the page is ${scrollWidth} px wide at ${width} px`);
  }
}

/** A toast titled `title` is showing. */
function toastTitled(page: Page, title: string | RegExp): Locator {
  return page.locator('.ant-notification-notice').filter({ hasText: title });
}

async function closeToasts(page: Page) {
  const notices = page.locator('.ant-notification-notice');
  // A closing toast may be replaced by the next one, so close whatever is showing until none is.
  for (let round = 0; round < 5 && (await notices.count()) > 0; round += 1) {
    await notices.first().locator('.ant-notification-notice-close').click({ timeout: 1000 }).catch(() => {});
    await notices.first().waitFor({ state: 'detached', timeout: 1000 }).catch(() => {});
  }
  assert.equal(await notices.count(), 0, 'no toast is left');
  // The pointer left on a close button keeps antd's toast stack 'hovered': its empty box stays over
  // the header (and the phone's Menu) until the pointer moves away, as a finger lifting does.
  await page.mouse.move(0, (page.viewportSize()?.height ?? 600) - 1);
  await page.locator('.ant-notification-list-hovered').waitFor({ state: 'detached', timeout: 3000 }).catch(() => {});
}

let browser: Browser;
/** A pilot who offers trips on the same dates as every width's pilot: Find swaps finds them. */
const offerer = person('Olga', 'Offerer');

before(async () => {
  browser = await launchBrowser();
  const context = await browser.newContext({ baseURL: process.env.BASE_URL });
  const page = await context.newPage();
  await page.goto('/');
  await registerByApi(page, offerer, {});
  await ok(page, 'POST', '/api/trips', trip('VS005', 'VS006', 10, 12, 'JFK', { isSwappable: true, swapDescription: 'Any JFK in the same week' }));
  await ok(page, 'POST', '/api/trips', trip('VS007', 'VS008', 13, 15, 'LAX-SFO', { isSwappable: true }));
  await context.close();
});
after(async () => {
  await browser?.close();
});

for (const width of WIDTHS) {
  describe(`every screen at ${width} px`, () => {
    let context: BrowserContext;
    let page: Page;
    const me = person('Casey', width === 390 ? 'Phone' : 'Desk');
    let email = '';

    before(async () => {
      context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 900 }, baseURL: process.env.BASE_URL });
      page = await context.newPage();
      page.setDefaultTimeout(10_000);
    });
    after(async () => {
      await context?.close();
    });
    // Each step starts where the one before ended, so after a failure the rest are skipped.
    let failed = false;
    const step = (name: string, body: () => Promise<void>) =>
      test(name, async (t) => {
        if (failed) return t.skip('an earlier step failed');
        try {
          await body();
        } catch (error) {
          failed = true;
          await page.screenshot({ path: join(SCREENSHOTS, `failed-${width}.png`) }).catch(() => {});
          throw error;
        }
      });

    step('login page, its dialogs and registration through the form', async () => {
      await page.goto('/');
      await page.getByRole('tab', { name: 'Login' }).waitFor();
      await shot(page, width, 'login');

      await page.getByLabel('Email').fill(me.emailPrefix);
      await page.getByRole('button', { name: 'Forgot Password' }).click();
      const reset = confirmDialog(page, 'Password Reset Confirmation');
      await reset.waitFor();
      await shot(page, width, 'forgot-password');
      // Not registered yet: the server answers as it would for anyone.
      await reset.getByRole('button', { name: 'OK' }).click();
      await toastTitled(page, 'Password Reset').waitFor();
      await closeToasts(page);

      await page.getByRole('tab', { name: 'Register' }).click();
      await page.getByLabel('First Name').fill(me.firstName);
      await page.getByLabel('Last Name').fill(me.lastName);
      await page.getByLabel('Employee ID').fill(me.employeeId);
      await chooseOption(page, 'Rank', 'Captain (CP)');
      await shot(page, width, 'register', { fullPage: true });

      await page.getByRole('button', { name: 'What is LTC?' }).click();
      const ltc = page.getByRole('dialog', { name: 'LTC (Trainer)' });
      await ltc.getByText('LTCs can mark trips as Training duties.').waitFor();
      await shot(page, width, 'ltc-info');
      await ltc.getByRole('button', { name: 'Close' }).first().click();
      await ltc.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'About Master Roster' }).click();
      const master = page.getByRole('dialog', { name: 'Master Roster' });
      await master.getByRole('table').waitFor();
      await shot(page, width, 'master-roster-info');
      await master.getByRole('button', { name: 'Close' }).first().click();
      await master.waitFor({ state: 'hidden' });

      await page.getByLabel('Phone').fill('+447700900123');
      await page.getByLabel('Email').fill(me.emailPrefix);
      await chooseOption(page, 'Fleet', 'A350');
      await chooseOption(page, 'Base', 'LHR');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm Password').fill(PASSWORD);
      const since = Date.now();
      await page.getByRole('button', { name: 'Register Pilot' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm your ID and Email' });
      await confirm.getByText(me.employeeId, { exact: true }).waitFor();
      await shot(page, width, 'confirm-id-email');
      await confirm.getByRole('button', { name: 'Confirm' }).click();

      const verify = page.getByRole('dialog', { name: 'VS Pilot Verification' });
      await verify.waitFor();
      email = (await verify.locator('strong').first().textContent()) ?? '';
      await shot(page, width, 'verification');
      await verify.getByLabel('Verification Code').fill(await verificationCode(email, since));
      await verify.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('No trips yet').waitFor();
      await closeToasts(page);
      await shot(page, width, 'trips-empty', { fullPage: true });
    });

    step('trips page with a normal, a kept, an offered and a standby trip', async () => {
      await ok(page, 'POST', '/api/trips', trip('VS003', 'VS004', 10, 12, 'JFK'));
      await ok(page, 'POST', '/api/trips', trip('VS025', 'VS026', 20, 22, 'LAX-SFO', { requested: true, companions: 2 }));
      await ok(page, 'POST', '/api/trips', trip('VS041', 'VS042', 30, 33, 'HKG', { isSwappable: true, swapDescription: 'Looking for anything to the west coast' }));
      await page.reload();
      await card(page, 'VS003/VS004').waitFor();
      // A standby duty through the form: RSV is no airport, and needs no aircraft.
      await openHeaderAction(page, 'Add Trip');
      const add = page.getByRole('dialog', { name: 'Add New Trip' });
      await add.getByLabel('Start Flight').fill('0');
      await add.getByLabel('End Flight').fill('0');
      await add.getByLabel('Route').fill('rsv');
      await fillDate(add.getByLabel('Start Date'), addDays(today, 5));
      await fillDate(add.getByLabel('End Date'), addDays(today, 5));
      await add.getByRole('button', { name: 'Add Trip' }).click();
      await card(page, 'VS000/VS000').getByText('Standby RSV').waitFor();
      // The card can show before its 'Trip Added' toast (the list also refreshes from the event
      // stream, and the toast's code may still be loading): a toast that came later would sit over
      // the phone's Menu in the next step.
      await page.locator('.ant-notification-notice', { hasText: 'Trip Added' }).waitFor();
      await closeToasts(page);
      await shot(page, width, 'trips', { fullPage: true });
      if (width < 768) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('menu').waitFor();
        await shot(page, width, 'header-menu');
        await page.keyboard.press('Escape');
      }
    });

    step('Add New Trip warnings, Confirm Valid Airport, Edit Trip and Confirm Delete Trip', async () => {
      // A toast that came after the last step's (the standby's) would sit over the phone's Menu.
      await closeToasts(page);
      await openHeaderAction(page, 'Add Trip');
      const add = page.getByRole('dialog', { name: 'Add New Trip' });
      await add.getByLabel('Start Flight').fill('11');
      await add.getByLabel('End Flight').fill('12');
      await fillDate(add.getByLabel('Start Date'), addDays(today, 60));
      await fillDate(add.getByLabel('End Date'), addDays(today, 68));
      // QQQ is a real code in the seeded list; QXZ is not.
      await add.getByLabel('Route').fill('QXZ');
      await add.getByLabel('Start Flight').click();
      const airport = page.getByRole('dialog', { name: 'Confirm Valid Airport' });
      await airport.waitFor();
      await shot(page, width, 'confirm-airport');
      await airport.getByRole('button', { name: 'Cancel' }).click();
      await airport.waitFor({ state: 'detached' });
      await add.getByLabel('Route').fill('JFK');
      await add.getByText('This trip is more than 8 weeks away.', { exact: false }).waitFor();
      await add.getByText('This trip is more than 7 days long.', { exact: false }).waitFor();
      await shot(page, width, 'add-trip');
      await add.getByRole('button', { name: 'Cancel' }).click();
      await add.waitFor({ state: 'detached' });

      await card(page, 'VS003/VS004').getByRole('button', { name: /Edit trip/ }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Trip' });
      await edit.getByLabel('Route').waitFor();
      await shot(page, width, 'edit-trip');
      await edit.getByRole('button', { name: 'Delete' }).click();
      const del = confirmDialog(page, 'Confirm Delete Trip');
      await del.waitFor();
      await shot(page, width, 'confirm-delete-trip');
      await del.getByRole('button', { name: 'Cancel' }).click();
      await del.waitFor({ state: 'detached' });
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await edit.waitFor({ state: 'detached' });
    });

    step('Manage Trip in its three colours, the offer notice, Push Alert and Cancel Swap Offer?', async () => {
      const manage = page.getByRole('dialog', { name: 'Manage Trip' });
      await card(page, 'VS025/VS026').getByRole('button', { name: 'Keep / Swap' }).click();
      await manage.locator('[data-tone="kept"]').waitFor();
      await shot(page, width, 'manage-kept');
      await manage.getByRole('button', { name: 'Close' }).last().click();
      await manage.waitFor({ state: 'detached' });

      await card(page, 'VS003/VS004').getByRole('button', { name: 'Keep / Swap' }).click();
      await manage.locator('[data-tone="neutral"]').waitFor();
      await shot(page, width, 'manage-neutral');
      await manage.getByRole('button', { name: 'Help' }).click();
      const help = page.getByRole('dialog', { name: 'Find & Alert date range' });
      await help.waitFor();
      await shot(page, width, 'date-range-help');
      await help.getByRole('button', { name: 'Close' }).first().click();
      await help.waitFor({ state: 'detached' });

      await manage.getByLabel('Swap description').fill('Happy to take any JFK trip');
      await manage.getByRole('button', { name: 'Swap', exact: true }).click();
      const offered = confirmDialog(page, 'Trip Offered for Swap');
      await offered.waitFor();
      await shot(page, width, 'trip-offered-notice');
      await offered.getByRole('button', { name: 'OK' }).click();
      await offered.waitFor({ state: 'detached' });
      await manage.locator('[data-tone="offered"]').waitFor();
      await shot(page, width, 'manage-offered');

      await manage.getByRole('button', { name: 'Push Alert' }).click();
      await toastTitled(page, '✓ Sent').waitFor();
      await manage.getByRole('button', { name: '✓ Sent' }).waitFor();
      await shot(page, width, 'push-alert-sent');
      await closeToasts(page);

      await manage.getByRole('button', { name: 'Offered for Swap' }).click();
      const cancel = confirmDialog(page, 'Cancel Swap Offer?');
      await cancel.waitFor();
      await shot(page, width, 'cancel-swap-offer');
      await cancel.getByRole('button', { name: 'Cancel Offer' }).click();
      await manage.locator('[data-tone="neutral"]').waitFor();
      await manage.getByRole('button', { name: 'Close' }).last().click();
      await manage.waitFor({ state: 'detached' });
    });

    step('Find swaps: results with Same Dates, Swap Offer Details, and none found', async () => {
      const normal = card(page, 'VS003/VS004');
      await normal.getByRole('button', { name: 'Find Swaps' }).click();
      const offer = normal.getByRole('button', { name: /CP Olga Offerer/ }).first();
      await offer.waitFor();
      await normal.getByText('Same Dates').first().waitFor();
      await normal.scrollIntoViewIfNeeded();
      await shot(page, width, 'find-swaps');
      if (width < 768) {
        // The header stays at the top of a scrolled page.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        assert.ok((await page.evaluate(() => window.scrollY)) > 0, 'the page scrolls');
        assert.equal(await page.locator('header').evaluate((header) => header.getBoundingClientRect().top), 0, 'the header sticks');
      }
      await offer.click();
      const details = page.getByRole('dialog', { name: 'Swap Offer Details' });
      const link = await details.getByRole('link', { name: 'Chat on WhatsApp' }).getAttribute('href');
      assert.match(link ?? '', /^https:\/\/wa\.me\/\d+\?text=/);
      await shot(page, width, 'swap-offer-details');
      await details.getByRole('button', { name: 'Close' }).first().click();
      await details.waitFor({ state: 'detached' });

      await card(page, 'VS025/VS026').getByRole('button', { name: 'Find Swaps' }).click();
      await toastTitled(page, 'No Offered Trips Found').waitFor().catch(async (error: unknown) => {
        await shot(page, width, 'find-swaps-none-found-failed');
        // What the card showed instead (offers found, an error) tells the cause.
        throw new Error(`${String(error)}\n${(await card(page, 'VS025/VS026').innerText()).slice(0, 800)}`);
      });
      await shot(page, width, 'no-offered-trips');
      await closeToasts(page);
    });

    step('Edit My Details and its confirmations', async () => {
      const details = page.getByRole('dialog', { name: 'Edit My Details' });
      const open = async () => {
        await openHeaderAction(page, 'Edit My Details');
        await details.getByLabel('First Name').waitFor();
      };
      const close = async () => {
        await details.getByRole('button', { name: 'Close' }).last().click();
        await details.waitFor({ state: 'detached' });
      };
      await open();
      await shot(page, width, 'edit-details');

      await chooseOption(page, 'Rank', 'First Officer (FO)');
      await details.getByRole('button', { name: 'Update Profile' }).click();
      const rank = confirmDialog(page, 'Confirm Rank Change');
      await rank.waitFor();
      await shot(page, width, 'confirm-rank-change');
      await rank.getByRole('button', { name: 'Cancel' }).click();
      await rank.waitFor({ state: 'detached' });
      await close();

      await open();
      await details.getByRole('switch').click();
      const off = confirmDialog(page, 'Turn Off Master Roster?');
      await off.waitFor();
      await shot(page, width, 'master-roster-off');
      await off.getByRole('button', { name: 'Turn Off' }).click();
      await off.waitFor({ state: 'detached' });
      await details.getByRole('button', { name: 'Update Profile' }).click();
      await details.waitFor({ state: 'detached' });
      await closeToasts(page);

      await open();
      await details.getByRole('switch').click();
      const cooldown = confirmDialog(page, 'Master Roster Cooldown');
      await cooldown.waitFor();
      await shot(page, width, 'master-roster-cooldown');
      await cooldown.getByRole('button', { name: 'OK' }).click();
      await cooldown.waitFor({ state: 'detached' });

      await details.getByRole('button', { name: 'Change Password' }).click();
      const password = page.getByRole('dialog', { name: 'Change Password' });
      await password.getByLabel('Current Password').waitFor();
      await shot(page, width, 'change-password');
      await password.getByRole('button', { name: 'Cancel' }).click();
      await password.waitFor({ state: 'detached' });

      await details.getByRole('button', { name: 'Delete Profile' }).click();
      const remove = confirmDialog(page, 'Delete Profile?');
      await remove.waitFor();
      await shot(page, width, 'delete-profile');
      await remove.getByRole('button', { name: 'Cancel' }).click();
      await remove.waitFor({ state: 'detached' });
      await close();
    });

    step('Confirm Logout, Page Not Found and the Logged In Elsewhere banner', async () => {
      await openHeaderAction(page, 'Logout');
      const logout = confirmDialog(page, 'Confirm Logout');
      await logout.waitFor();
      await shot(page, width, 'confirm-logout');
      await logout.getByRole('button', { name: 'Cancel' }).click();
      await logout.waitFor({ state: 'detached' });

      await page.goto('/no-such-page');
      await page.getByText('Page Not Found').waitFor();
      await shot(page, width, 'not-found');
      await page.getByRole('button', { name: 'Go to My Trips' }).click();
      await card(page, 'VS003/VS004').waitFor();

      // A login elsewhere ends this session; the open page hears it over its event stream.
      const elsewhere = await browser.newContext({ baseURL: process.env.BASE_URL });
      const other = await elsewhere.newPage();
      await other.goto('/no-such-page');
      await ok(other, 'POST', '/api/auth/login', { email, password: PASSWORD });
      await elsewhere.close();
      await page.getByText('Logged In Elsewhere').waitFor();
      await shot(page, width, 'logged-in-elsewhere');
    });

    step('five failed logins mail a temporary password that must be changed', async () => {
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const answer = await api(page, 'POST', '/api/auth/login', { email, password: 'wrong-password' });
        assert.equal(answer.status, 401);
      }
      await page.getByLabel('Email').fill(me.emailPrefix);
      await page.getByLabel('Password', { exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await toastTitled(page, 'Failed login attempt 4 of 5').waitFor();
      await shot(page, width, 'login-last-attempt');
      const since = Date.now();
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await toastTitled(page, 'Password Reset').waitFor();
      await shot(page, width, 'login-password-reset');
      await closeToasts(page);

      await page.getByLabel('Password', { exact: true }).fill(await temporaryPassword(email, since));
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByText(`Hello ${me.firstName}, you must change your password before continuing.`).waitFor();
      await shot(page, width, 'force-password-change');
      await page.getByLabel('New Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm New Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await card(page, 'VS003/VS004').waitFor();
    });

    step('testing mode: the Testing button and Test Pilot Login', async () => {
      const admin = await browser.newContext({ baseURL: process.env.BASE_URL });
      const console = await admin.newPage();
      await console.goto('/no-such-page');
      await ok(console, 'POST', '/api/admin/login', { email: 'admin@crewswap.local', password: 'change-me-now' });
      await ok(console, 'PUT', '/api/admin/settings/testing_password', { value: TESTING_PASSWORD });
      await ok(console, 'PUT', '/api/admin/settings/testing_button_enabled', { value: 'true' });
      try {
        await openHeaderAction(page, 'Logout');
        await confirmDialog(page, 'Confirm Logout').getByRole('button', { name: 'Logout' }).click();
        await page.reload();
        await page.getByRole('button', { name: 'Testing' }).waitFor();
        await shot(page, width, 'login-testing');
        await page.getByRole('button', { name: 'Testing' }).click();
        const dialog = page.getByRole('dialog', { name: 'Test Pilot Login' });
        await dialog.getByRole('button', { name: `Log in as ${me.firstName} ${me.lastName}` }).first().waitFor();
        await dialog.getByLabel('Testing Password').fill(TESTING_PASSWORD);
        await shot(page, width, 'test-pilot-login');
        await dialog.getByLabel('Search pilots').fill(me.employeeId);
        await dialog.getByRole('button', { name: `Log in as ${me.firstName} ${me.lastName}` }).click();
        await card(page, 'VS003/VS004').waitFor();

        // Deleting the profile ends the session and shows the login page.
        await openHeaderAction(page, 'Edit My Details');
        await page.getByRole('dialog', { name: 'Edit My Details' }).getByRole('button', { name: 'Delete Profile' }).click();
        await confirmDialog(page, 'Delete Profile?').getByRole('button', { name: 'Delete Profile' }).click();
        await page.getByRole('tab', { name: 'Login' }).waitFor();
        assert.equal((await api(page, 'GET', '/api/pilot/current')).status, 401);
      } finally {
        await ok(console, 'PUT', '/api/admin/settings/testing_button_enabled', { value: 'false' });
        await admin.close();
      }
    });
  });
}
