/**
 * The crewing desk and give-aways against the real stack (issue 53). Ann (1280 px) and Ben (390 px)
 * agree a swap; Dee, an admin holding only manage_swaps, approves it in the console and both
 * pilots' open trips pages show the moved trips without a reload. A second agreed swap is refused
 * with a reason, which Ben reads in his agreed swaps. Ann offers a trip as a give-away in Manage
 * Trip; Cat (390 px) picks it up from the header's menu, Ann accepts and Dee approves: the trip is
 * Cat's. Screens are saved at 1280 and 390 px (web/e2e/screenshots/<screen>-<width>.png).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { api as sharedApi, confirmDialog, fillDate, launchBrowser, ok as sharedOk, openHeaderAction, shotsAtBothWidths, signUpByApi, tripBody, unique, until } from './support';

// These journeys read many answers' fields in passing, so they take the bodies untyped.
type Loose = any;
const api = (page: Page, method: string, path: string, body?: unknown) => sharedApi<Loose>(page, method, path, body);
const ok = (page: Page, method: string, path: string, body?: unknown) => sharedOk<Loose>(page, method, path, body);

const MASTER = { email: 'admin@crewswap.local', password: 'change-me-now' };
const DESK_PASSWORD = 'desk-pass-1';
const today = londonToday();
const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
// Days no other journey uses: the journeys share one stack.
const trip = (start: string, end: string, from: number, to: number, route: string) => tripBody(today, start, end, from, to, route);
const shots = shotsAtBothWidths;

describe('the crewing desk: approve, refuse, and a give-away picked up', () => {
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let ann: Page;
  let ben: Page;
  let cat: Page;
  let dee: Page;
  const ids = { annGives: '', benGives: '', annRefused: '', benRefused: '', giveaway: '' };

  const open = async (viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ viewport, baseURL: process.env.BASE_URL });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  };

  /** Ben proposes `mine` for Ann's offered `offered` (null: a pick-up by `who`), and Ann accepts. */
  const agree = async (who: Page, offered: string, mine: string | null) => {
    const proposal = await ok(who, 'POST', '/api/swaps/proposals', { offeredTripId: offered, myTripId: mine });
    await ok(ann, 'POST', `/api/swaps/proposals/${proposal.id}/accept`, {});
  };

  /** Swaps learns of an offer from trips' events a moment later. */
  const offerSeen = (page: Page, mine: string) =>
    until('the offer in Find swaps', async () => {
      const found = await api(page, 'GET', `/api/trips/${mine}/matches`);
      return found.status === 200 && found.body.length > 0 ? true : undefined;
    });

  const deskRequest = (title: string) => dee.getByRole('dialog', { name: 'Swap Requests' }).getByRole('article', { name: `Swap request: ${title}` });

  before(async () => {
    browser = await launchBrowser();
    ann = await open(DESK);
    ben = await open(PHONE);
    cat = await open(PHONE);
    dee = await open(DESK);
    await signUpByApi(ann, { firstName: 'Ann', lastName: 'Desk', tag: 'desk' });
    await signUpByApi(ben, { firstName: 'Ben', lastName: 'Desk', tag: 'desk' });
    await signUpByApi(cat, { firstName: 'Cat', lastName: 'Desk', tag: 'desk' });

    // Dee holds manage_swaps and nothing else: the master admin adds her.
    await dee.goto('/no-such-page');
    await ok(dee, 'POST', '/api/admin/login', MASTER);
    const email = `desk.${unique()}@crewswap.local`;
    const admin = await ok(dee, 'POST', '/api/admin/admins', { name: 'Dee Desk', email, phone: null, jobTitle: null, isMasterAdmin: false, permissions: ['manage_swaps'] });
    await ok(dee, 'POST', `/api/admin/admins/${admin.id}/set-password`, { password: DESK_PASSWORD, confirmPassword: DESK_PASSWORD });
    await ok(dee, 'POST', '/api/admin/logout', {});
    await ok(dee, 'POST', '/api/admin/login', { email, password: DESK_PASSWORD });

    // The swap to approve, and the one to refuse.
    ids.annGives = (await ok(ann, 'POST', '/api/trips', trip('VS951', 'VS952', 160, 162, 'JFK'))).id;
    ids.benGives = (await ok(ben, 'POST', '/api/trips', trip('VS953', 'VS954', 161, 163, 'LAX'))).id;
    ids.annRefused = (await ok(ann, 'POST', '/api/trips', trip('VS955', 'VS956', 170, 172, 'BOS'))).id;
    ids.benRefused = (await ok(ben, 'POST', '/api/trips', trip('VS957', 'VS958', 171, 173, 'SFO'))).id;
    for (const offered of [ids.annGives, ids.annRefused]) await ok(ann, 'PATCH', `/api/trips/${offered}/swappable`, { isSwappable: true });
    await offerSeen(ben, ids.benGives);
    await offerSeen(ben, ids.benRefused);
    await agree(ben, ids.annGives, ids.benGives);
    await agree(ben, ids.annRefused, ids.benRefused);
    // The give-away, offered in the app below.
    ids.giveaway = (await ok(ann, 'POST', '/api/trips', trip('VS959', 'VS960', 180, 182, 'SEA'))).id;
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    contexts = [];
    await browser?.close();
  });

  test('a pilot can no longer record crewing’s answer: 410, and the app shows the status', async () => {
    const agreements = await ok(ben, 'GET', '/api/swaps/agreements');
    const gone = await api(ben, 'POST', `/api/swaps/agreements/${agreements[0].id}/crewing`, { status: 'approved' });
    assert.equal(gone.status, 410);
    await ben.goto('/');
    const card = ben.getByRole('article', { name: /^Trip VS953\/VS954/ });
    await card.getByText('Waiting for crewing').waitFor();
  });

  test('Dee approves the swap at the desk; both trips pages show the moved trips without a reload', async () => {
    await ann.goto('/');
    await ann.getByRole('article', { name: /^Trip VS951\/VS952/ }).waitFor();
    await ben.getByRole('article', { name: /^Trip VS953\/VS954/ }).waitFor();

    await dee.goto('/admin/swap-requests');
    const desk = dee.getByRole('dialog', { name: 'Swap Requests' });
    await desk.waitFor();
    const request = deskRequest('Ben Desk and Ann Desk').filter({ hasText: 'VS951/VS952' });
    await request.getByText('VS953/VS954 LAX').waitFor();
    await shots(dee, 'crewing-desk');
    await request.getByRole('button', { name: 'Approve' }).click();
    await confirmDialog(dee, 'Approve Swap').getByRole('button', { name: 'Approve' }).click();
    await request.waitFor({ state: 'detached' });

    // No reload: the event stream and the bell bring the trips that changed hands.
    await ann.getByRole('article', { name: /^Trip VS953\/VS954/ }).waitFor();
    await ann.getByRole('article', { name: /^Trip VS951\/VS952/ }).waitFor({ state: 'detached' });
    await ben.getByRole('article', { name: /^Trip VS951\/VS952/ }).waitFor();
    await ben.getByRole('article', { name: /^Trip VS953\/VS954/ }).waitFor({ state: 'detached' });
    await shots(ben, 'swap-approved-trips');
  });

  test('Dee refuses the other with a reason; Ben reads it in his agreed swaps', async () => {
    const request = deskRequest('Ben Desk and Ann Desk').filter({ hasText: 'VS955/VS956' });
    await request.getByRole('button', { name: 'Refuse' }).click();
    const refuse = dee.getByRole('dialog', { name: /^Refuse: / });
    await refuse.getByRole('button', { name: 'Refuse Swap' }).click();
    await refuse.getByText('Please give a reason').waitFor();
    await refuse.getByLabel('Reason (the pilots read it)').fill('Not enough rest before VS957');
    await shots(dee, 'crewing-desk-refuse');
    await refuse.getByRole('button', { name: 'Refuse Swap' }).click();
    await refuse.waitFor({ state: 'detached' });

    // The refused filter is kept in the address.
    const desk = dee.getByRole('dialog', { name: 'Swap Requests' });
    await desk.getByRole('combobox', { name: 'Status' }).click();
    await dee.getByTitle('Refused').click();
    await until('the status in the address', async () => (new URL(dee.url()).searchParams.get('status') === 'refused' ? true : undefined));
    await deskRequest('Ben Desk and Ann Desk').getByText('Refused: Not enough rest before VS957').waitFor();

    await openHeaderAction(ben, 'Swap Proposals');
    const dialog = ben.getByRole('dialog', { name: 'Swap Proposals' });
    await dialog.getByRole('tab', { name: 'Agreed' }).click();
    await dialog.getByText('Refused by crewing: Not enough rest before VS957').waitFor();
    await shots(ben, 'swap-refused');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
  });

  test('Ann offers a trip as a give-away; Cat picks it up, Ann accepts, Dee approves: the trip is Cat’s', async () => {
    const card = ann.getByRole('article', { name: /^Trip VS959\/VS960/ });
    await card.getByRole('button', { name: 'Keep / Swap' }).click();
    const manage = ann.getByRole('dialog', { name: 'Manage Trip' });
    await manage.getByText('Give away', { exact: true }).click();
    await manage.getByRole('button', { name: 'Swap', exact: true }).click();
    await ann.getByRole('dialog', { name: 'Trip Offered for Swap' }).getByRole('button', { name: 'OK' }).click();
    await manage.getByRole('button', { name: 'Close' }).first().click();
    await card.getByText('Give away', { exact: true }).waitFor();

    await cat.goto('/');
    await cat.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    await openHeaderAction(cat, 'Pick up a trip');
    const pickUp = cat.getByRole('dialog', { name: 'Pick up a trip' });
    // The give-away is months away: past the default range (today to the swap window).
    await fillDate(pickUp.getByLabel('To'), addDays(today, 200));
    const offered = pickUp.getByRole('article', { name: 'Give-away VS959/VS960 SEA' });
    await until('the give-away listed', async () => ((await offered.count()) > 0 ? true : undefined));
    await offered.getByText('Ann Desk').waitFor();
    await shots(cat, 'pick-up');
    await offered.getByRole('button', { name: 'Request' }).click();
    await offered.getByRole('button', { name: 'Requested' }).waitFor();
    await pickUp.getByRole('button', { name: 'Close' }).first().click();

    const received = await ok(ann, 'GET', '/api/swaps/proposals');
    const pickUpProposal = received.find((p: Loose) => p.owner.trip.id === ids.giveaway && p.status === 'open');
    assert.equal(pickUpProposal.proposer.trip, null);
    await ok(ann, 'POST', `/api/swaps/proposals/${pickUpProposal.id}/accept`, {});

    await dee.goto('/admin/swap-requests');
    const request = deskRequest('Give-away: Ann Desk to Cat Desk');
    await request.getByRole('button', { name: 'Approve' }).click();
    await confirmDialog(dee, 'Approve Swap').getByRole('button', { name: 'Approve' }).click();
    await request.waitFor({ state: 'detached' });

    await cat.getByRole('article', { name: /^Trip VS959\/VS960/ }).waitFor();
    await ann.getByRole('article', { name: /^Trip VS959\/VS960/ }).waitFor({ state: 'detached' });
    await shots(cat, 'giveaway-picked-up');
  });
});
