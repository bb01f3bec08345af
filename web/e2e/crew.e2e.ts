/**
 * Crew, WhatsApp groups, calendars, Trip Search and Tech Support against the real stack: two
 * pilots on the same flight see each other in Crew on Trip, one creates the trip's WhatsApp group
 * and sets its link, the other sees it active with its QR code; the calendars open. Every new
 * screen is saved at 1280 and 390 px (web/e2e/screenshots/<screen>-<width>.png); at 390 px
 * nothing may scroll sideways.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { api as sharedApi, fillDate, launchBrowser, ok as sharedOk, openHeaderAction, shotsAtBothWidths, signUpByApi, tripBody } from './support';

// These journeys read many answers' fields in passing, so they take the bodies untyped.
type Loose = any;
const api = (page: Page, method: string, path: string, body?: unknown) => sharedApi<Loose>(page, method, path, body);
const ok = (page: Page, method: string, path: string, body?: unknown) => sharedOk<Loose>(page, method, path, body);

const LINK = 'https://chat.whatsapp.com/CrewSwapE2eGroupLink01';
const SUPPORT_LINK = 'https://chat.whatsapp.com/CrewSwapTechSupport0001';
const today = londonToday();
const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** An FO on the A350 at LHR, registered, verified and signed in through the API. */
const pilot = (page: Page, firstName: string, lastName: string, extra: Record<string, unknown> = {}) =>
  signUpByApi(page, { firstName, lastName, tag: 'crew', rank: 'FO', extra });
const trip = (start: string, end: string, from: number, to: number, route: string) => tripBody(today, start, end, from, to, route);
const shots = shotsAtBothWidths;

async function closeDialog(page: Page, name: string | RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await dialog.waitFor({ state: 'detached' });
}

const FLIGHTS = 'VS871/VS872';

describe('crew on trip, WhatsApp groups, calendars and trip search', () => {
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let amy: Page;
  let bea: Page;

  const open = async (viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ viewport, baseURL: process.env.BASE_URL });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };

  before(async () => {
    browser = await launchBrowser();
    amy = await open(DESK);
    bea = await open(PHONE);
    const cal = await open(DESK);
    await pilot(amy, 'Amy', 'Crewtest');
    await pilot(bea, 'Bea', 'Crewmate');
    await pilot(cal, 'Cal', 'Crossover');
    await ok(amy, 'POST', '/api/trips', trip('VS871', 'VS872', 10, 12, 'JFK'));
    await ok(bea, 'POST', '/api/trips', trip('VS871', 'VS872', 10, 12, 'JFK'));
    // Cal is in JFK while Amy is (a crossover) and offers that trip for swap (the Swap Calendar's offer).
    const offered = await ok(cal, 'POST', '/api/trips', trip('VS873', 'VS874', 11, 13, 'JFK'));
    await ok(cal, 'PATCH', `/api/trips/${offered.id}/swappable`, { isSwappable: true, swapDescription: 'Any JFK trip that week' });
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    contexts = [];
    await browser?.close();
  });

  test('two pilots on the same flight see each other in Crew on Trip', async () => {
    await amy.goto('/');
    await amy.getByRole('button', { name: `View pilots on trip ${FLIGHTS}` }).click();
    const crew = amy.getByRole('dialog', { name: 'Crew on Trip' });
    const row = crew.getByRole('listitem', { name: 'FO Bea Crewmate' });
    await row.waitFor();
    const chat = await row.getByRole('link', { name: 'WhatsApp Bea Crewmate' }).getAttribute('href');
    assert.match(decodeURIComponent(chat ?? ''), /^https:\/\/wa\.me\/44770090\d+\?text=Hi Bea, this is FO Amy Crewtest\./);
    await crew.getByRole('button', { name: 'Create WhatsApp Group' }).waitFor();
    await shots(amy, 'crew-on-trip');
  });

  test('one creates the group and sets its link, with the spec’s messages for a blank or wrong link', async () => {
    const crew = amy.getByRole('dialog', { name: 'Crew on Trip' });
    await crew.getByRole('button', { name: 'Create WhatsApp Group' }).click();
    const field = crew.getByLabel("Paste the group's invite link:");
    await field.waitFor();
    await crew.getByRole('button', { name: 'Save Link' }).click();
    await crew.getByText('Please paste the WhatsApp group invite link').waitFor();
    await field.fill('https://example.com/group');
    await crew.getByRole('button', { name: 'Save Link' }).click();
    await crew.getByText('Invalid WhatsApp invite link').waitFor();
    await shots(amy, 'crew-group-pending');
    await field.fill(LINK);
    await crew.getByRole('button', { name: 'Save Link' }).click();
    const join = crew.getByRole('link', { name: /Join Group/ });
    await join.waitFor();
    assert.equal(await join.getAttribute('href'), LINK);
    await crew.getByRole('button', { name: /Delete Group/ }).waitFor();
    await closeDialog(amy, 'Crew on Trip');
  });

  test('the other sees it active with its QR code, and may not delete it', async () => {
    await bea.goto('/');
    await bea.getByRole('button', { name: `View pilots on trip ${FLIGHTS}` }).click();
    const crew = bea.getByRole('dialog', { name: 'Crew on Trip' });
    await crew.getByRole('listitem', { name: 'FO Amy Crewtest' }).waitFor();
    const join = crew.getByRole('link', { name: /Join Group/ });
    await join.waitFor();
    assert.equal(await join.getAttribute('href'), LINK);
    assert.equal(await crew.getByRole('button', { name: /Delete Group/ }).count(), 0);
    await shots(bea, 'crew-group-active');
    await crew.getByRole('button', { name: /QR Code/ }).click();
    const qr = bea.getByLabel(`QR code for ${LINK}`);
    await qr.waitFor();
    await shots(bea, 'crew-group-qr');
    // The spec's 200 px code (antd's QRCode, `size` 200 with its quiet zone), measured once the dialog stopped zooming.
    const box = await bea.locator('.ant-qrcode').filter({ has: qr }).boundingBox();
    assert.ok(box && Math.round(box.width) === 200, `QR code is ${box?.width} px wide`);
  });

  test('the calendars open: Choose Calendar View, Master, Crossover and Swap', async () => {
    await amy.reload();
    await amy.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    await openHeaderAction(amy, 'Calendars');
    const chooser = amy.getByRole('dialog', { name: 'Choose Calendar View' });
    await chooser.waitFor();
    await shots(amy, 'calendars-choose');

    await chooser.getByRole('button', { name: 'Master Calendar' }).click();
    const master = amy.getByRole('dialog', { name: 'Master Calendar' });
    const grid = master.getByRole('grid', { name: 'Master Calendar' });
    await grid.getByRole('rowheader', { name: /Bea Crewmate/ }).waitFor();
    const labels = await grid.getByRole('rowheader').allTextContents();
    assert.match(labels[0] ?? '', /^Me/, 'own row first');
    // Auto-scrolled so that today is about a third of the way in (today is past the first days of the month).
    if (Number(today.slice(8)) > 12) assert.ok((await grid.evaluate((el) => el.scrollLeft)) > 0, 'scrolled to today');
    await shots(amy, 'calendar-master');
    await closeDialog(amy, 'Master Calendar');

    await openHeaderAction(amy, 'Calendars');
    await amy.getByRole('dialog', { name: 'Choose Calendar View' }).getByRole('button', { name: 'Crossover Calendar' }).click();
    const crossover = amy.getByRole('dialog', { name: 'Crossover Calendar' });
    await crossover.getByRole('rowheader', { name: /VS873\/VS874 JFK/ }).waitFor();
    await crossover.getByRole('gridcell', { name: /VS873\/VS874 JFK .*1 pilot$/ }).waitFor();
    await shots(amy, 'calendar-crossover');
    await closeDialog(amy, 'Crossover Calendar');

    await openHeaderAction(amy, 'Calendars');
    await amy.getByRole('dialog', { name: 'Choose Calendar View' }).getByRole('button', { name: 'Swap Calendar' }).click();
    const swap = amy.getByRole('dialog', { name: 'Swap Calendar' });
    await swap.getByRole('rowheader', { name: /Cal Crossover/ }).waitFor();
    await shots(amy, 'calendar-swap');
    await swap.getByRole('gridcell', { name: /Swap offer from Cal Crossover/ }).click();
    await amy.getByRole('dialog', { name: 'Swap Offer Details' }).getByText('Any JFK trip that week').waitFor();
    await closeDialog(amy, 'Swap Offer Details');
    await closeDialog(amy, 'Swap Calendar');
  });

  test('Trip Search finds the flight with its crew; its messages are the spec’s', async () => {
    await openHeaderAction(amy, 'Trip Search');
    const search = amy.getByRole('dialog', { name: 'Trip Search' });
    await search.getByRole('button', { name: /Search/ }).click();
    await search.getByText('Search Criteria Required').waitFor();
    await shots(amy, 'trip-search-message');
    await search.getByLabel('Flight Number').fill('871');
    await search.getByLabel('Flight Number').blur();
    assert.equal(await search.getByLabel('Flight Number').inputValue(), 'VS871');
    await fillDate(search.getByLabel('Date'), addDays(today, 10));
    await search.getByRole('button', { name: /Search/ }).click();
    await search.getByText('VS871/VS872 JFK').click();
    await search.getByRole('listitem', { name: 'FO Bea Crewmate' }).waitFor();
    await shots(amy, 'trip-search-results');
    await closeDialog(amy, 'Trip Search');
  });

  test('Tech Support Group: the join link as a QR code, and the user guide', async () => {
    const admin = await open(DESK);
    await admin.goto('/no-such-page');
    await ok(admin, 'POST', '/api/admin/login', { email: 'admin@crewswap.local', password: 'change-me-now' });
    await ok(admin, 'PUT', '/api/admin/settings/tech_support_whatsapp_url', { value: SUPPORT_LINK });
    try {
      await amy.reload();
      await amy.getByRole('button', { name: /^Edit My Details/ }).waitFor();
      await openHeaderAction(amy, 'Tech Support');
      const support = amy.getByRole('dialog', { name: 'Tech Support Group' });
      assert.equal(await support.getByRole('link', { name: /Join Tech Support Group/ }).getAttribute('href'), SUPPORT_LINK);
      await support.getByLabel('QR code to join the tech support group').waitFor();
      await support.getByRole('link', { name: 'user guide' }).waitFor();
      await shots(amy, 'tech-support');
      await closeDialog(amy, 'Tech Support Group');
    } finally {
      await ok(admin, 'PUT', '/api/admin/settings/tech_support_whatsapp_url', { value: '' });
    }
  });

  test("with Master Roster off, the Master Calendar and Trip Search are 'Not Available'", async () => {
    const dee = await open(PHONE);
    await pilot(dee, 'Dee', 'Offroster', { usualReq: false });
    await dee.goto('/');
    await dee.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    await openHeaderAction(dee, 'Calendars');
    await dee.getByRole('dialog', { name: 'Choose Calendar View' }).getByRole('button', { name: 'Master Calendar' }).click();
    const notice = dee.getByRole('dialog', { name: 'Not Available' });
    await notice.getByText(/Please enable Master Roster in your profile settings/).waitFor();
    await shots(dee, 'calendar-not-available');
    await closeDialog(dee, 'Not Available');
    await openHeaderAction(dee, 'Trip Search');
    await dee.getByRole('dialog', { name: 'Not Available' }).waitFor();
  });
});
