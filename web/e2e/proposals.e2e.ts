/**
 * Swap proposals against the real stack (issue 37): Ben finds Ann's offer and proposes his trip
 * with a note; Ann sees the count on her offered trip and counters with another of her trips; Ben
 * accepts the counter; both trips show the agreed swap; the crewing request opens and prints;
 * Ben records crewing's approval. Every screen is saved at 1280 and 390 px
 * (web/e2e/screenshots/<screen>-<width>.png); at 390 px nothing may scroll sideways.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { londonToday } from '@crewswap/proto/browser';
import { api as sharedApi, confirmDialog, launchBrowser, ok as sharedOk, openHeaderAction, shotsAtBothWidths, signUpByApi, tripBody, until } from './support';

// These journeys read many answers' fields in passing, so they take the bodies untyped.
type Loose = any;
const api = (page: Page, method: string, path: string, body?: unknown) => sharedApi<Loose>(page, method, path, body);
const ok = (page: Page, method: string, path: string, body?: unknown) => sharedOk<Loose>(page, method, path, body);

const today = londonToday();
const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

// Days far from every other journey's trips: the journeys share one stack, and an offer left here
// must not turn up in another pilot's Find swaps (the screens journey expects none on its dates).
const trip = (start: string, end: string, from: number, to: number, route: string) => tripBody(today, start, end, from, to, route);
const pilot = (page: Page, firstName: string, lastName: string) => signUpByApi(page, { firstName, lastName, tag: 'swap' });
const shots = shotsAtBothWidths;

describe('swap proposals: propose, counter, accept, the crewing request', () => {
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let ann: Page;
  let ben: Page;
  let annStaff = '';
  let benStaff = '';

  const open = async (viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ viewport, baseURL: process.env.BASE_URL });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };

  before(async () => {
    browser = await launchBrowser();
    ann = await open(DESK);
    ben = await open(PHONE);
    annStaff = (await pilot(ann, 'Ann', 'Offerer')).employeeId;
    benStaff = (await pilot(ben, 'Ben', 'Proposer')).employeeId;
    const offered = await ok(ann, 'POST', '/api/trips', trip('VS881', 'VS882', 140, 142, 'JFK'));
    await ok(ann, 'PATCH', `/api/trips/${offered.id}/swappable`, { isSwappable: true, swapDescription: 'Need the weekend off' });
    await ok(ann, 'POST', '/api/trips', trip('VS885', 'VS886', 144, 146, 'BOS'));
    const mine = await ok(ben, 'POST', '/api/trips', trip('VS883', 'VS884', 141, 143, 'LAX'));
    // Swaps learns of the trips from trips' events a moment later.
    await until('the offer in Find swaps', async () => {
      const found = await api(ben, 'GET', `/api/trips/${mine.id}/matches`);
      return found.status === 200 && found.body.length > 0 ? true : undefined;
    });
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    contexts = [];
    await browser?.close();
  });

  test('Ben proposes his trip for Ann’s offer, with a note, from Find swaps', async () => {
    await ben.goto('/');
    const card = ben.getByRole('article', { name: /^Trip VS883\/VS884/ });
    await card.getByRole('button', { name: 'Find Swaps' }).click();
    await card.getByRole('button', { name: 'Propose Swap with Ann Offerer' }).click();
    const dialog = ben.getByRole('dialog', { name: 'Propose Swap' });
    await dialog.getByLabel('Note').fill('Family wedding that weekend');
    await shots(ben, 'propose-swap');
    await dialog.getByRole('button', { name: 'Propose Swap' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('Ann sees the proposal on her offered trip and counters with another of her trips', async () => {
    await ann.goto('/');
    const card = ann.getByRole('article', { name: /^Trip VS881\/VS882/ });
    await card.getByRole('button', { name: '1 swap proposal for this trip' }).click();
    const dialog = ann.getByRole('dialog', { name: 'Swap Proposals' });
    const proposal = dialog.getByRole('article', { name: 'Proposal from Ben Proposer' });
    await proposal.getByText('“Family wedding that weekend”').waitFor();
    await proposal.getByText('Ben Proposer').waitFor();
    await shots(ann, 'proposals-received');
    await proposal.getByRole('button', { name: 'Counter' }).click();
    await proposal.getByLabel('Trip to offer instead').click();
    await ann.getByTitle(/^VS885\/VS886 BOS/).click();
    await proposal.getByRole('button', { name: 'Send Counter' }).click();
    await proposal.getByText('Countered').waitFor();
  });

  test('Ben accepts the counter: the swap is agreed on both pilots’ trips', async () => {
    await ben.reload();
    await ben.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    await openHeaderAction(ben, 'Swap Proposals');
    const dialog = ben.getByRole('dialog', { name: 'Swap Proposals' });
    const counter = dialog.getByRole('article', { name: 'Proposal from Ann Offerer' });
    await counter.locator('.ant-tag').filter({ hasText: /^Counter$/ }).waitFor();
    await shots(ben, 'proposals-counter');
    await counter.getByRole('button', { name: 'Accept' }).click();
    await confirmDialog(ben, 'Accept Swap').getByRole('button', { name: 'Accept' }).click();
    await dialog.getByRole('tab', { name: 'Agreed' }).click();
    const agreed = dialog.getByRole('article', { name: 'Swap with Ann Offerer' });
    await agreed.getByText('Waiting for crewing').waitFor();
    await shots(ben, 'proposals-agreed');

    await ann.reload();
    const annCard = ann.getByRole('article', { name: /^Trip VS885\/VS886/ });
    await annCard.getByText('Waiting for crewing').waitFor();
    await annCard.getByRole('button', { name: 'with Ben Proposer' }).waitFor();
    await shots(ann, 'trip-swap-agreed');
  });

  test('the crewing request names both pilots and trips and prints; only crewing decides (the crewing desk, crewing-desk.e2e.ts)', async () => {
    const dialog = ben.getByRole('dialog', { name: 'Swap Proposals' });
    const agreed = dialog.getByRole('article', { name: 'Swap with Ann Offerer' });
    await agreed.getByRole('button', { name: 'Crewing Request' }).click();
    const request = ben.getByRole('dialog', { name: 'Crewing Request' });
    for (const text of [`Ann Offerer, staff number ${annStaff}`, `Ben Proposer, staff number ${benStaff}`, 'VS885/VS886 BOS (A350)', 'VS883/VS884 LAX (A350)', /^Agreed: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/]) {
      await request.getByText(text).first().waitFor();
    }
    await ben.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await request.getByRole('button', { name: 'Print' }).click();
    assert.equal(await ben.evaluate(() => (window as unknown as { printed: number }).printed), 1);
    await shots(ben, 'crewing-request');
    await request.getByRole('button', { name: 'Close' }).last().click();
    await request.waitFor({ state: 'detached' });
    // A pilot can no longer record crewing's answer: no 'Approved by Crewing' or 'Refused by Crewing' button.
    assert.equal(await agreed.getByRole('button', { name: /by crewing/i }).count(), 0);
    const history = await ok(ann, 'GET', '/api/swaps/agreements');
    assert.deepEqual(history.map((a: Loose) => a.status), ['agreed']);
  });
});
