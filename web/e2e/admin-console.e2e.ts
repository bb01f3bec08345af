/**
 * The administrator console against the real stack: the bootstrapped admin signs in, changes a
 * setting (31 days refused), adds an admin with some permissions and checks that admin's menu,
 * edits a pilot, previews a cleanup, and shuts the system down and resumes it while a pilot has
 * the app open. Then every panel is photographed at 390 and 1440 px
 * (web/e2e/screenshots/admin-<panel>-<width>.png) to be looked at.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { api, BASE_URL, launchBrowser, ok, SCREENSHOTS, settle, signUpByApi, unique } from './support';

const ADMIN = { email: 'admin@crewswap.local', password: 'change-me-now' };
const PILOT_PASSWORD = 'secret-pass-1';
const ROSTER = fileURLToPath(new URL('../../services/roster-ingest/test/fixtures/rosters/roster-a-lhr-a350-cp.ics', import.meta.url));
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function newPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/admin');
  await page.getByRole('heading', { name: 'Admin Portal' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Logged in as').first().waitFor();
}

/** The panel dialog `/admin/<name>` opens, by its title. */
function panel(page: Page, title: string) {
  return page.getByRole('dialog', { name: title });
}

async function openMenu(page: Page, label: string) {
  const narrow = (page.viewportSize()?.width ?? 1440) < 768;
  if (narrow) await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: label }).click();
  else await page.getByRole('menu').getByRole('menuitem', { name: label }).click();
  await panel(page, label).waitFor();
}

async function toast(page: Page, title: string) {
  await page.locator('.ant-notification-notice').filter({ hasText: title }).first().waitFor();
}

interface Pilot {
  email: string;
  employeeId: string;
  lastName: string;
}

/** A pilot registered, verified and signed in through the API in `page`, with a trip and an uploaded roster. */
async function pilotWithData(page: Page): Promise<Pilot> {
  // Letters only in the last name: the console's search finds the pilot by it.
  const lastName = `Admin${unique().replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
  const { email, employeeId } = await signUpByApi(page, { firstName: 'Imogen', lastName, tag: 'adm' });
  const today = londonToday();
  await ok(page, 'POST', '/api/trips', {
    flightNoStart: 'VS009',
    flightNoEnd: 'VS010',
    aircraft: 'A350',
    route: 'BOS',
    startDate: addDays(today, 10),
    endDate: addDays(today, 12),
  });
  const roster = readFileSync(ROSTER, 'utf8');
  await page.evaluate(async (text) => {
    const form = new FormData();
    form.append('roster', new Blob([text], { type: 'text/calendar' }), 'roster-a.ics');
    await fetch('/api/roster/upload', { method: 'POST', body: form, credentials: 'include' });
  }, roster);
  return { email, employeeId, lastName };
}

async function menuState(page: Page): Promise<Record<string, boolean>> {
  const items = page.getByRole('menu').getByRole('menuitem');
  const state: Record<string, boolean> = {};
  for (const item of await items.all()) {
    state[(await item.textContent())!.trim()] = (await item.getAttribute('aria-disabled')) !== 'true';
  }
  return state;
}

describe('the admin console', () => {
  let browser: Browser;
  let pilot: Pilot;
  let pilotPage: Page;

  before(async () => {
    browser = await launchBrowser();
    pilotPage = await newPage(browser);
    pilot = await pilotWithData(pilotPage);
  });
  after(() => browser?.close());

  test('an admin runs the system from the console', async () => {
    const page = await newPage(browser);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByText('CrewSwap Admin Panel').waitFor();

    // A setting: 31 days is refused, 7 is saved.
    const seeded = await ok<{ value: string }>(page, 'GET', '/api/settings/swap_search_days');
    await openMenu(page, 'System Settings');
    const settings = panel(page, 'System Settings');
    const range = settings.getByLabel('Max Find Swaps Range (days)');
    await range.fill('31');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await settings.getByText('Cannot exceed 30 days').waitFor();
    await range.fill('7');
    // A fresh system starts with a valid roster upload address (roster-ingest's default), so the form saves as seeded.
    assert.equal(await settings.getByLabel('Roster Upload Email').inputValue(), 'roster-upload@crewswap.local');
    // The Tech Support Group link: blank or a WhatsApp invite link.
    const support = settings.getByLabel('Tech Support WhatsApp Group Link');
    await support.fill('https://example.com/not-whatsapp');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await settings.getByText('Please enter a WhatsApp group invite link (https://chat.whatsapp.com/...)').waitFor();
    await support.fill('https://chat.whatsapp.com/CrewSwapSupport2026');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Settings updated');
    assert.equal((await ok<{ value: string }>(page, 'GET', '/api/settings/swap_search_days')).value, '7');
    assert.equal((await ok<{ value: string }>(page, 'GET', '/api/settings/tech_support_whatsapp_url')).value, 'https://chat.whatsapp.com/CrewSwapSupport2026');
    // The journeys share one stack: the later ones find swaps with the seeded range and no support link.
    await ok(page, 'PUT', '/api/admin/settings/swap_search_days', { value: seeded.value });
    await ok(page, 'PUT', '/api/admin/settings/tech_support_whatsapp_url', { value: '' });
    // Clear Push Subscriptions, through its confirm dialog, against the notifications service.
    await settings.getByRole('button', { name: 'Clear Push Subscriptions' }).click();
    await page.getByRole('dialog', { name: 'Clear Push Subscriptions' }).getByRole('button', { name: 'Clear All' }).click();
    await toast(page, 'Subscriptions Cleared');
    await settings.getByRole('button', { name: 'Close' }).first().click();

    // An admin who may manage pilots and see analytics, and nothing else.
    await openMenu(page, 'Manage Admins');
    const admins = panel(page, 'Manage Admins');
    await admins.getByRole('button', { name: 'Add Admin' }).click();
    const add = page.getByRole('dialog', { name: 'Add Admin' });
    const adminEmail = `ops.${unique()}@crewswap.local`;
    await add.getByLabel('Name').fill('Olive Ops');
    await add.getByLabel('Email').fill(adminEmail);
    await add.getByLabel('Manage Pilots').check();
    await add.getByLabel('View Analytics').check();
    await add.getByRole('button', { name: 'Add Admin' }).click();
    await toast(page, 'Admin Added');
    await admins.getByRole('button', { name: 'Set password of Olive Ops' }).click();
    const setPassword = page.getByRole('dialog', { name: 'Set Initial Password: Olive Ops' });
    await setPassword.getByLabel('Password', { exact: true }).fill('olive-pass-1');
    await setPassword.getByLabel('Confirm Password').fill('olive-pass-2');
    await setPassword.getByRole('button', { name: 'Set Password' }).click();
    await setPassword.getByText('Passwords do not match').waitFor();
    await setPassword.getByLabel('Confirm Password').fill('olive-pass-1');
    await setPassword.getByRole('button', { name: 'Set Password' }).click();
    await toast(page, 'Password Set');

    const olive = await newPage(browser);
    await signIn(olive, adminEmail, 'olive-pass-1');
    assert.deepEqual(await menuState(olive), {
      'Manage Pilots': true,
      'Swap Requests': false,
      Rosters: true,
      'IATA Codes': false,
      'Manage Admins': false,
      'System Settings': false,
      Security: false,
      'Data Cleanup': false,
    });
    await olive.context().close();
    await page.getByRole('dialog', { name: 'Manage Admins' }).getByRole('button', { name: 'Close' }).first().click();

    // A pilot edited: found by employee id, renamed.
    await openMenu(page, 'Manage Pilots');
    const pilots = panel(page, 'Manage Pilots');
    await pilots.getByLabel('Search pilots').fill(pilot.employeeId);
    // The search is kept in the address, and the list is what the server found for it.
    await page.waitForURL(new RegExp(`search=${pilot.employeeId}`));
    await pilots.getByText(/Showing 1 of \d+ pilots/).waitFor();
    await pilots.getByRole('button', { name: `Edit Imogen ${pilot.lastName}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit Pilot: Imogen ${pilot.lastName}` });
    await edit.getByLabel('First Name').fill('Isobel');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Pilot Updated');
    await pilots.getByRole('cell', { name: `Isobel ${pilot.lastName}`, exact: true }).waitFor();
    await pilots.getByRole('button', { name: 'Close' }).first().click();

    // A cleanup previewed, not run.
    await openMenu(page, 'Data Cleanup');
    await panel(page, 'Data Cleanup').getByRole('button', { name: 'Run Cleanup Now' }).click();
    const run = page.getByRole('dialog', { name: 'Run Cleanup' });
    await run.getByRole('button', { name: 'Preview' }).click();
    await run.getByText(/trips? would be deleted with 7 days' retention/).waitFor();
    await run.getByRole('button', { name: 'Cancel' }).click();
    await panel(page, 'Data Cleanup').getByRole('button', { name: 'Close' }).first().click();

    // Emergency shutdown while the pilot has the app open, then resume.
    await pilotPage.goto('/');
    await pilotPage.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    await openMenu(page, 'Security');
    const security = panel(page, 'Security');
    await security.getByRole('button', { name: 'Emergency Shutdown' }).click();
    const shutdown = page.getByRole('dialog', { name: 'Confirm Emergency Shutdown' });
    await shutdown.getByLabel('Type EMERGENCY to confirm').fill('emergency');
    await shutdown.getByRole('button', { name: 'Activate Shutdown' }).click();
    await shutdown.getByText('Please type EMERGENCY to confirm').waitFor();
    await shutdown.getByLabel('Type EMERGENCY to confirm').fill('EMERGENCY');
    await shutdown.getByLabel('Reason (optional)').fill('e2e drill');
    await shutdown.getByRole('button', { name: 'Activate Shutdown' }).click();
    // Signing in during the shutdown is refused with 'System Temporarily Unavailable' until operations resume.
    const signInAsPilot = async () => {
      await pilotPage.bringToFront();
      await pilotPage.getByLabel('Email').first().fill(pilot.email.split('@')[0]!);
      const password = pilotPage.getByLabel('Password', { exact: true }).first();
      await password.fill(PILOT_PASSWORD);
      // Enter submits, as a pilot would: after a refused login the button's loading icon may still
      // be leaving (its name then reads 'loading Login').
      await password.press('Enter');
    };
    try {
      await toast(page, 'Emergency Shutdown Activated');
      await security.getByText('System is in emergency shutdown').waitFor();

      // The pilot's open page is told over its event stream (auth_failed, admin_shutdown), or by the 401
      // of whichever call comes first (sessionEnded: admin_shutdown): without a
      // reload it shows the login page with the 'System Temporarily Unavailable' banner.
      await pilotPage.getByRole('tab', { name: 'Login' }).waitFor();
      await pilotPage
        .getByText('System Temporarily Unavailable')
        .first()
        .waitFor()
        .catch(async (error: unknown) => {
          // The banner shown instead ('Session Expired', none) tells which call ended the session.
          await pilotPage.screenshot({ path: join(SCREENSHOTS, 'admin-pilot-live-shutdown-failed-1440.png') }).catch(() => undefined);
          throw new Error(`${String(error)}\nThe pilot's page showed: ${(await pilotPage.locator('body').innerText().catch(() => '')).slice(0, 600)}`);
        });
      assert.equal(await pilotPage.evaluate(() => window.sessionStorage.getItem('showAdminShutdown')), null, 'the banner has consumed its flag');
      await pilotPage.screenshot({ path: join(SCREENSHOTS, 'admin-pilot-live-shutdown-banner-1440.png') });
      await signInAsPilot();
      // The login's refusal is a toast (the banner above is already on the page).
      await toast(pilotPage, 'System Temporarily Unavailable');
      await pilotPage.screenshot({ path: join(SCREENSHOTS, 'admin-pilot-during-shutdown-1440.png') });

      await page.bringToFront();
      await security.getByRole('button', { name: 'Resume Operations' }).click();
      await toast(page, 'Operations Resumed');
      await security.getByRole('button', { name: 'Emergency Shutdown' }).waitFor();
    } finally {
      // A failure above must not leave the system paused for every journey after this one.
      const status = await api<{ isShutdown: boolean }>(page, 'GET', '/api/admin/emergency-status').catch(() => undefined);
      if (status?.body?.isShutdown !== false) await api(page, 'POST', '/api/admin/resume-operations').catch(() => undefined);
    }
    await signInAsPilot();
    await pilotPage.getByRole('button', { name: /^Edit My Details/ }).waitFor();

    // Logout lands on the admin login.
    await security.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('heading', { name: 'Admin Portal' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/admin/login');
    await page.context().close();
  });

  test('every panel at 390 and 1440 px', async () => {
    const shots: [string, string, string?][] = [
      ['', 'home'],
      ['pilots', 'pilots', 'Manage Pilots'],
      ['rosters', 'rosters', 'Rosters'],
      ['iata-codes', 'iata-codes', 'IATA Codes'],
      ['iata-codes?tab=excluded', 'excluded-airports', 'IATA Codes'],
      ['admins', 'admins', 'Manage Admins'],
      ['admins?view=activity', 'admin-activity', 'Admin Activity Logs'],
      ['admins?view=permissions', 'admin-permissions', 'Permission Management'],
      ['settings', 'settings', 'System Settings'],
      ['security', 'security', 'Security'],
      ['cleanup', 'cleanup', 'Data Cleanup'],
      ['sessions?history=on', 'sessions', 'Active Sessions'],
      ['analytics', 'analytics', 'Trip Analytics by Fleet & Rank'],
    ];
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(browser, viewport);
      await page.goto('/admin/login');
      await page.getByRole('heading', { name: 'Admin Portal' }).waitFor();
      await settle(page);
      await page.screenshot({ path: join(SCREENSHOTS, `admin-login-${viewport.width}.png`) });
      await signIn(page, ADMIN.email, ADMIN.password);
      for (const [path, name, title] of shots) {
        await page.goto(`/admin/${path}`);
        if (title) await page.getByRole('dialog', { name: title }).last().waitFor();
        else await page.getByText('Registrations').waitFor();
        // Every table and card has its data (no spinner, no blurred table, no skeleton) before the picture.
        await page.waitForFunction(() => document.querySelectorAll('.ant-spin-spinning, .ant-spin-blur, .ant-skeleton-active').length === 0);
        // ...and the table's fade back from its loading state has ended (CSS transitions show in getAnimations).
        await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity));
        await settle(page);
        await page.screenshot({ path: join(SCREENSHOTS, `admin-${name}-${viewport.width}.png`) });
        if (name === 'security') {
          // The emergency card sits below the fold of the Security dialog.
          await page.locator('.admin-emergency').scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(SCREENSHOTS, `admin-security-emergency-${viewport.width}.png`) });
        }
        if (viewport.width < 768) {
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(scrollWidth <= viewport.width, `${name}: the page is ${scrollWidth} px wide at ${viewport.width} px`);
        }
      }
      await page.context().close();
    }
  });
});
