import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { addTrip, launchBrowser, newPage, openHeaderAction, PHONE, pilotData, register, screenshot, settle } from './support';

const TITLE = 'Pike Place Chowder';

/** A screenshot once antd's dialogs have stopped moving. */
async function shot(page: Page, name: string) {
  await settle(page);
  await screenshot(page, name);
}

/** Nothing may scroll sideways on a phone. */
async function assertNoSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.equal(overflow, false, 'nothing scrolls sideways at 390 px');
}

describe('crew links: a pilot adds a link from a trip, and pilots like it', () => {
  let browser: Browser;
  let desk: Page;
  let phone: Page;

  before(async () => {
    browser = await launchBrowser();
    desk = await newPage(browser);
    phone = await newPage(browser, PHONE);
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await screenshot(desk, 'crew-links-last-1280').catch(() => {});
    await screenshot(phone, 'crew-links-last-390').catch(() => {});
  });

  test("one tap on a trip card opens Crew Links for that trip's destination", async () => {
    await register(desk, pilotData('L'));
    const dialog = await addTrip(desk, { start: '21', end: '22', route: 'SEA', from: addDays(londonToday(), 10), to: addDays(londonToday(), 12) });
    await dialog.getByRole('button', { name: 'Add Trip' }).click();
    await desk.getByRole('button', { name: 'Crew links for SEA' }).click();
    const list = desk.getByRole('dialog', { name: 'Crew Links' });
    await list.getByLabel('Destination filter').getByText('SEA').waitFor();
    await list.getByText('No crew links found').waitFor();
  });

  test('adding a link: the form starts with the trip’s airport and the new card shows in the list', async () => {
    const list = desk.getByRole('dialog', { name: 'Crew Links' });
    await list.getByRole('button', { name: 'Add Crew Link' }).click();
    const form = desk.getByRole('dialog', { name: 'Add Crew Link' });
    assert.equal(await form.getByLabel('Destinations').inputValue(), 'SEA');
    await form.getByLabel('Title').fill(TITLE);
    await form.getByLabel('Category').click();
    // The options list is virtual: typing brings Restaurant into view.
    await desk.keyboard.type('Rest');
    await desk.locator('.ant-select-item-option', { hasText: 'Restaurant' }).first().click();
    await form.getByLabel('Description').fill('Best clam chowder near the crew hotel. <b>Cash only</b>.');
    await form.getByLabel('Discount details').fill('10% off with a crew ID');
    await form.getByLabel('Website').fill('https://chowder.example.com');
    await form.getByLabel('Location name').fill('Pike Place Market');
    await form.getByLabel('Address or lat,long').fill('47.6097,-122.3422');
    await shot(desk, 'crew-link-form-1280');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await desk.getByText('Crew link added').waitFor();
    await form.waitFor({ state: 'detached' });
    await list.getByRole('article', { name: TITLE }).waitFor();
    // Typed markup is shown as text, never as markup.
    await list.getByText('<b>Cash only</b>', { exact: false }).waitFor();
  });

  test('liking the link counts once and shows it as liked', async () => {
    const card = desk.getByRole('dialog', { name: 'Crew Links' }).getByRole('article', { name: TITLE });
    await card.getByRole('button', { name: `Like ${TITLE}: 0 likes` }).click();
    const liked = card.getByRole('button', { name: `Unlike ${TITLE}: 1 like` });
    await liked.waitFor();
    assert.equal(await liked.getAttribute('aria-pressed'), 'true');
    await shot(desk, 'crew-links-1280');
  });

  test('the detail view has a map link for the location', async () => {
    const card = desk.getByRole('dialog', { name: 'Crew Links' }).getByRole('article', { name: TITLE });
    await card.getByText(TITLE).click();
    const detail = desk.getByRole('dialog', { name: new RegExp(TITLE) });
    const map = detail.getByRole('link', { name: /Open in Maps/ });
    assert.equal(await map.getAttribute('href'), 'https://www.google.com/maps/search/?api=1&query=47.6097%2C-122.3422');
    await detail.getByText(/Last edited by Erin L-Tester/).waitFor();
    await shot(desk, 'crew-link-detail-1280');
    await detail.locator('.crew-link-detail-actions').getByRole('button', { name: 'Close' }).click();
  });

  test('an airport code that is not in the IATA list offers to add it (Unknown Airport Code)', async () => {
    const list = desk.getByRole('dialog', { name: 'Crew Links' });
    await list.getByLabel('Airport code').fill('XQ');
    await list.getByRole('button', { name: 'Filter' }).click();
    await list.getByText('Airport codes must be exactly 3 letters').waitFor();
    await list.getByLabel('Airport code').fill('XQZ');
    await list.getByRole('button', { name: 'Filter' }).click();
    const unknown = desk.getByRole('dialog', { name: 'Unknown Airport Code' });
    await unknown.getByRole('button', { name: 'Add Code' }).waitFor();
    await shot(desk, 'crew-links-unknown-airport-1280');
    await unknown.getByRole('button', { name: 'Cancel' }).click();
  });

  test('on a phone another pilot opens Crew Links from the header menu and likes the link too', async () => {
    await register(phone, pilotData('M'));
    await openHeaderAction(phone, 'Crew Links');
    const list = phone.getByRole('dialog', { name: 'Crew Links' });
    const card = list.getByRole('article', { name: TITLE });
    await card.getByRole('button', { name: `Like ${TITLE}: 1 like` }).click();
    await card.getByRole('button', { name: `Unlike ${TITLE}: 2 likes` }).waitFor();
    await assertNoSideways(phone);
    await shot(phone, 'crew-links-390');

    await list.getByLabel('Search crew links').fill('pi');
    await phone.locator('.ant-select-item-option', { hasText: TITLE }).first().waitFor();
    await shot(phone, 'crew-links-suggestions-390');
    await list.getByLabel('Search crew links').fill('');
  });

  test('on a phone: the detail, the edit form and the delete confirm', async () => {
    const list = phone.getByRole('dialog', { name: 'Crew Links' });
    await list.getByRole('article', { name: TITLE }).getByText(TITLE).click();
    const detail = phone.getByRole('dialog', { name: new RegExp(TITLE) });
    await detail.getByRole('link', { name: /Open in Maps/ }).waitFor();
    await assertNoSideways(phone);
    await shot(phone, 'crew-link-detail-390');
    await detail.getByRole('button', { name: 'Edit' }).click();
    const form = phone.getByRole('dialog', { name: 'Edit Crew Link' });
    assert.equal(await form.getByLabel('Title').inputValue(), TITLE);
    await shot(phone, 'crew-link-form-390');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await detail.getByRole('button', { name: 'Delete' }).click();
    const confirm = phone.getByRole('dialog', { name: 'Delete Crew Link' });
    await confirm.waitFor();
    await shot(phone, 'crew-link-delete-390');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await phone.getByText('Crew Link Deleted').waitFor();
    await list.getByText('No crew links found').waitFor();
  });
});
