/**
 * Issue 35, "The last of the spec", in a real browser against the real stack: a dialog and what
 * was typed survive a width change across the phone breakpoint (the console's EMERGENCY
 * confirmation), a session ended from another tab shows 'Session Expired', Manage Trip's
 * companions, training and 'Save Swap Preference?', the pilot contact view from the Master
 * Calendar, and the daily access code page. The screens are photographed at 390 px and 1280 px
 * (web/e2e/screenshots/spec35-<screen>-<width>.png) to be looked at.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { launchBrowser, newPage, ok, openHeaderAction, screenshot, signUpByApi, unique } from './support';

const ADMIN = { email: 'admin@crewswap.local', password: 'change-me-now' };
const WIDTHS = [390, 1280] as const;
const today = londonToday();

let serial = 0;
/** A pilot registered, verified and signed in through the API in `page`. */
async function pilotIn(page: Page, firstName: string, extra: Record<string, unknown> = {}) {
  serial += 1;
  // Letters only in the last name: the journey finds the pilot by it.
  const lastName = `Spec${(unique() + serial).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
  return { lastName, ...(await signUpByApi(page, { firstName, lastName, tag: 's35', extra })) };
}

async function shots(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await page.waitForTimeout(300);
    await screenshot(page, `spec35-${name}-${width}`);
  }
}

async function adminSignIn(page: Page) {
  await page.goto('/admin');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Logged in as').first().waitFor();
}

describe('the last of the spec (issue 35)', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser?.close());

  test('the EMERGENCY confirmation and what was typed survive rotating across the phone breakpoint', async () => {
    const page = await newPage(browser);
    await adminSignIn(page);
    await page.goto('/admin/security');
    await page.getByRole('button', { name: 'Emergency Shutdown' }).click();
    const confirmation = page.getByLabel('Type EMERGENCY to confirm');
    await confirmation.fill('EMERG');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    assert.equal(await confirmation.inputValue(), 'EMERG');
    await screenshot(page, 'spec35-emergency-after-rotate-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForTimeout(300);
    assert.equal(await confirmation.inputValue(), 'EMERG');
    await page.getByRole('button', { name: 'Cancel' }).last().click();
    await page.getByLabel('Testing password').scrollIntoViewIfNeeded();
    await shots(page, 'security');
  });

  test("a session ended in another tab shows 'Session Expired' at /", async () => {
    const page = await newPage(browser);
    await pilotIn(page, 'Tabitha');
    await page.goto('/upload-roster');
    await page.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    const other = await page.context().newPage();
    await other.goto('/');
    await ok(other, 'POST', '/api/auth/logout');
    await page.getByText('Session Expired').waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await screenshot(page, 'spec35-session-expired-1280');
  });

  test("Manage Trip: companions and training, then 'Save Swap Preference?' for an unsaved description", async () => {
    const page = await newPage(browser);
    await pilotIn(page, 'Lena', { ltc: true });
    await ok(page, 'POST', '/api/trips', { flightNoStart: 'VS021', flightNoEnd: 'VS022', aircraft: 'A350', route: 'JFK', startDate: addDays(today, 9), endDate: addDays(today, 11) });
    await page.goto('/');
    await page.getByRole('button', { name: 'Keep / Swap' }).first().click();
    const manage = page.getByRole('dialog', { name: 'Manage Trip' });
    await manage.getByText('Companions').waitFor();
    await manage.getByRole('checkbox', { name: 'Training trip' }).click();
    await manage.locator('.ant-checkbox-checked').waitFor();
    await page.waitForTimeout(500);
    await shots(page, 'manage-trip');
    await manage.getByLabel('Swap description').fill('Any JFK in March');
    await manage.getByRole('button', { name: 'Close' }).last().click();
    await page.getByText('Save Swap Preference?').waitFor();
    await shots(page, 'save-swap-preference');
    await page.getByRole('button', { name: 'Discard' }).click();
    await manage.waitFor({ state: 'detached' });
  });

  test('the upload result names the skipped old trips with the reason; Edit My Details sets the Find Swaps range', async () => {
    const page = await newPage(browser);
    await pilotIn(page, 'Ursula');
    const day = (offset: number) => addDays(today, offset).replace(/-/g, '');
    const sector = (uid: string, date: string, summary: string, from: string, to: string) =>
      ['BEGIN:VEVENT', `UID:${uid}@spec35.test`, 'DTSTAMP:20260101T000000Z', `DTSTART:${date}T${from}00Z`, `DTEND:${date}T${to}00Z`, `SUMMARY:${summary}`, 'END:VEVENT'];
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//spec35//EN',
      ...sector('old-out', day(-20), 'VS3 LHR 1105 JFK 1355 351 [CP]', '1105', '1855'),
      ...sector('old-back', day(-19), 'VS4 JFK 0830 LHR 2025 351 [CP]', '1330', '2025'),
      ...sector('new-out', day(10), 'VS5 LHR 1105 BOS 1355 351 [CP]', '1105', '1855'),
      ...sector('new-back', day(11), 'VS6 BOS 0830 LHR 2025 351 [CP]', '1330', '2025'),
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    await page.goto('/upload-roster');
    await page.getByLabel('Roster file').setInputFiles({ name: 'roster.ics', mimeType: 'text/calendar', buffer: Buffer.from(ics) });
    await page.getByText('Trip ended more than 7 days ago', { exact: false }).waitFor();
    await page.getByLabel('Upload result').getByText('1 added, 1 skipped', { exact: true }).waitFor();
    await shots(page, 'upload-skipped');
    await page.getByRole('button', { name: 'Close' }).last().click();
    await openHeaderAction(page, 'Edit My Details');
    await page.getByLabel('Find Swaps range (days)').fill('6');
    await shots(page, 'edit-details-range');
  });

  test('tapping another pilot in the Master Calendar opens their contact', async () => {
    const other = await newPage(browser);
    const carla = await pilotIn(other, 'Carla');
    await ok(other, 'POST', '/api/trips', { flightNoStart: 'VS031', flightNoEnd: 'VS032', aircraft: 'A350', route: 'SEA', startDate: addDays(today, 3), endDate: addDays(today, 5) });
    const page = await newPage(browser);
    await pilotIn(page, 'Mona');
    await ok(page, 'POST', '/api/trips', { flightNoStart: 'VS041', flightNoEnd: 'VS042', aircraft: 'A350', route: 'BOS', startDate: addDays(today, 6), endDate: addDays(today, 8) });
    await page.goto('/');
    await page.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    await openHeaderAction(page, 'Calendars');
    await page.getByRole('dialog', { name: 'Choose Calendar View' }).getByRole('button', { name: 'Master Calendar' }).click();
    const carlasRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`Carla ${carla.lastName}`) }) });
    await carlasRow.getByRole('gridcell', { name: /VS031\/VS032 SEA/ }).click();
    await page.getByText('Pilot Contact').waitFor();
    await page.getByText(carla.phone).last().waitFor();
    await shots(page, 'pilot-contact');
  });

  test('the daily access code at its path, for a signed-in administrator', async () => {
    const page = await newPage(browser);
    await adminSignIn(page);
    const path = `/crew-access-${unique()}`;
    await ok(page, 'PUT', '/api/admin/settings/access_code_path', { value: path });
    await ok(page, 'PUT', '/api/admin/settings/daily_access_code', { value: '482913' });
    await page.goto(path);
    await page.getByText('482913').waitFor();
    await shots(page, 'access-code');
    await page.goto('/admin/analytics');
    await page.getByText('Swap Offers').waitFor();
    await shots(page, 'analytics');
  });
});
