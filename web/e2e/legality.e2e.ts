/**
 * Legal and worth it (issue 55) against the real stack. Ava (390 px) uploads a roster with duty
 * times (fixtures/roster-with-times.ics, NetLine style, dated from today): her trips show what they
 * are worth. Bea offers a day trip with report and release times that starts 9 h after Ava's JFK
 * trip ends at home base, and a typed trip without times. In Find swaps for Ava's BOS trip the
 * first is 'Not legal' with the rest figure and proposing it is refused with that sentence (409);
 * the second is 'Times unknown' and can be proposed, the dialog showing Ava's month before and
 * after. Dee, an admin holding manage_swaps, sees both pilots' check on the pending request; once
 * Bea adds a trip that leaves her too little rest before Ava's trip, the desk says why and refuses
 * to approve. Screens are saved at 1280 and 390 px (web/e2e/screenshots/<screen>-<width>.png).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addDays, londonToday, numericDate } from '@crewswap/proto/browser';
import { api as sharedApi, confirmDialog, launchBrowser, ok as sharedOk, openHeaderAction, screenshot, settle, shotsAtBothWidths, signUpByApi, tripBody, unique, until } from './support';

// These journeys read many answers' fields in passing, so they take the bodies untyped.
type Loose = any;
const api = (page: Page, method: string, path: string, body?: unknown) => sharedApi<Loose>(page, method, path, body);
const ok = (page: Page, method: string, path: string, body?: unknown) => sharedOk<Loose>(page, method, path, body);

const MASTER = { email: 'admin@crewswap.local', password: 'change-me-now' };
const DESK_PASSWORD = 'desk-pass-1';
const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const today = londonToday();
// Days no other journey uses: the journeys share one stack, and Find swaps shows every pilot's offers.
const FIRST = 250;
const day = (n: number) => addDays(today, FIRST + n);
const trip = (start: string, end: string, from: number, to: number, route: string) => tripBody(today, start, end, FIRST + from, FIRST + to, route);
/** Ava's roster: VS141/VS142 to JFK on days 0-2, back at LHR at 18:00 UTC; VS143/VS144 to BOS on days 5-7, check-in 09:00 UTC. */
const ROSTER = readFileSync(new URL('./fixtures/roster-with-times.ics', import.meta.url), 'utf8').replace(/\{\{(TODAY|D(\d))\}\}/g, (_match, what: string, n: string) =>
  (what === 'TODAY' ? today : day(Number(n))).replace(/-/g, ''),
);
// Bea's day trip reports at 03:00 UTC on day 3: 9 h after Ava's release, whose last duty was 9 h.
const TOO_SOON = `Rest before VS151 on ${numericDate(day(3))} would be 9 h; at least 12 h needed`;
// Bea's later trip releases at 23:00 UTC on day 4: 10 h before Ava's BOS trip reports.
const BEA_TOO_SOON = `Rest before VS143 on ${numericDate(day(5))} would be 10 h; at least 12 h needed`;
const shots = shotsAtBothWidths;

describe('legal and worth it: times from the roster, the check in Find swaps, proposals and at the desk', () => {
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let ava: Page;
  let bea: Page;
  let dee: Page;
  const ids = { tooSoon: '', untimed: '', avaBos: '' };

  const open = async (viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ viewport, baseURL: process.env.BASE_URL });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  };

  const offers = () => ava.getByRole('region', { name: 'Matching swap offers' });
  const offer = (flights: string) => offers().getByRole('listitem').filter({ hasText: flights });
  const flightTimeLimits = (name: string) => dee.locator(`[aria-label="Flight time limits: ${name}"]`);
  const deskRequest = () => dee.getByRole('dialog', { name: 'Swap Requests' }).getByRole('article', { name: 'Swap request: Ava Legal and Bea Legal' });

  before(async () => {
    browser = await launchBrowser();
    ava = await open(PHONE);
    bea = await open(DESK);
    dee = await open(DESK);
    await signUpByApi(ava, { firstName: 'Ava', lastName: 'Legal', tag: 'legal' });
    await signUpByApi(bea, { firstName: 'Bea', lastName: 'Legal', tag: 'legal' });
    ids.tooSoon = (await ok(bea, 'POST', '/api/trips', { ...trip('VS151', 'VS152', 3, 3, 'DUB'), reportAt: `${day(3)}T03:00:00Z`, releaseAt: `${day(3)}T13:00:00Z` })).id;
    ids.untimed = (await ok(bea, 'POST', '/api/trips', trip('VS155', 'VS156', 8, 8, 'LAX'))).id;
    for (const offered of [ids.tooSoon, ids.untimed]) await ok(bea, 'PATCH', `/api/trips/${offered}/swappable`, { isSwappable: true });

    // Dee holds manage_swaps and nothing else: the master admin adds her.
    await dee.goto('/no-such-page');
    await ok(dee, 'POST', '/api/admin/login', MASTER);
    const email = `legal.${unique()}@crewswap.local`;
    const admin = await ok(dee, 'POST', '/api/admin/admins', { name: 'Dee Legal', email, phone: null, jobTitle: null, isMasterAdmin: false, permissions: ['manage_swaps'] });
    await ok(dee, 'POST', `/api/admin/admins/${admin.id}/set-password`, { password: DESK_PASSWORD, confirmPassword: DESK_PASSWORD });
    await ok(dee, 'POST', '/api/admin/logout', {});
    await ok(dee, 'POST', '/api/admin/login', { email, password: DESK_PASSWORD });
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    contexts = [];
    await browser?.close();
  });

  test('Ava uploads a roster with times: her trips keep them and show what they are worth', async () => {
    await ava.goto('/');
    await ava.getByRole('button', { name: /^Edit My Details/ }).waitFor();
    await openHeaderAction(ava, 'Upload Roster');
    const dialog = ava.getByRole('dialog', { name: 'Upload Roster' });
    await dialog.getByLabel('Roster file').setInputFiles({ name: 'roster.ics', mimeType: 'text/calendar', buffer: Buffer.from(ROSTER) });
    await dialog.getByText('2 trips added').waitFor({ timeout: 30_000 });
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    const trips = await ok(ava, 'GET', '/api/trips');
    const jfk = trips.find((t: Loose) => t.flightNoStart === 'VS141');
    ids.avaBos = trips.find((t: Loose) => t.flightNoStart === 'VS143').id;
    assert.equal(jfk.reportAt, `${day(0)}T09:00:00Z`);
    assert.equal(jfk.releaseAt, `${day(2)}T18:00:00Z`);
    assert.deepEqual(
      jfk.sectors.map((s: Loose) => `${s.flightNo} ${s.from}-${s.to}`),
      ['VS141 LHR-JFK', 'VS142 JFK-LHR'],
    );
    // Block 8:00 out and 7:30 back.
    await ava.getByRole('article', { name: /^Trip VS141\/VS142/ }).getByText('3 days · 2 nights · block 15:30 · 2 sectors').waitFor();
  });

  test('Find swaps: Bea’s day trip is not legal for Ava, with the rest figure; her untimed trip is unknown', async () => {
    // Swaps learns of the trips from trips' events a moment later.
    await until('both offers in Find swaps', async () => {
      const found = await api(ava, 'GET', `/api/trips/${ids.avaBos}/matches`);
      return found.status === 200 && [ids.tooSoon, ids.untimed].every((id) => found.body.some((m: Loose) => m.trip.id === id)) ? true : undefined;
    });
    const card = ava.getByRole('article', { name: /^Trip VS143\/VS144/ });
    await card.getByRole('button', { name: 'Find Swaps' }).click();
    await offer('VS151/VS152').getByText('Not legal', { exact: true }).waitFor();
    await offer('VS151/VS152').getByText(TOO_SOON).waitFor();
    await offer('VS155/VS156').getByText('Times unknown', { exact: true }).waitFor();
    await shots(ava, 'find-swaps-legality');
    // On a phone: the tag and its reason under the offer.
    await offer('VS151/VS152').scrollIntoViewIfNeeded();
    await screenshot(ava, 'find-swaps-not-legal-390');

    // Hiding the offers Ava may not fly leaves the unknown one.
    await offers().getByRole('switch').click();
    await offer('VS151/VS152').waitFor({ state: 'detached' });
    await offer('VS155/VS156').waitFor();
    await offers().getByRole('switch').click();
    await offer('VS151/VS152').waitFor();
  });

  test('proposing the offer that is not legal is refused with the sentence; the month panel shows before and after', async () => {
    await offer('VS151/VS152').getByRole('button', { name: /^Propose Swap/ }).click();
    const dialog = ava.getByRole('dialog', { name: 'Propose Swap' });
    await dialog.getByText(TOO_SOON).waitFor();
    const month = dialog.getByRole('table', { name: /^Your month: / });
    await month.getByRole('columnheader', { name: 'After the swap' }).waitFor();
    // Bea's day trip is 10 h of duty and no block; Ava's BOS trip leaves the month if it is in it.
    const duty = month.getByRole('row', { name: /^Duty/ }).getByRole('cell');
    const [now, later] = await duty.allInnerTexts();
    assert.match(now!, /^\d+:\d{2}$/);
    assert.match(later!, /^\d+:\d{2}$/);
    assert.notEqual(now, later, 'the month after the swap differs from now');
    await shots(ava, 'propose-swap-not-legal');
    await settle(ava);
    await dialog.getByRole('button', { name: 'Propose Swap' }).click();
    await ava.locator('.ant-notification-notice').filter({ hasText: TOO_SOON }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    const refused = await api(ava, 'POST', '/api/swaps/proposals', { offeredTripId: ids.tooSoon, myTripId: ids.avaBos });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, TOO_SOON);
  });

  test('the trip without times can still be proposed, and Bea accepts', async () => {
    await offer('VS155/VS156').getByRole('button', { name: /^Propose Swap/ }).click();
    const dialog = ava.getByRole('dialog', { name: 'Propose Swap' });
    await dialog.getByText('Times unknown', { exact: true }).waitFor();
    await dialog.getByRole('table', { name: /^Your month: / }).waitFor();
    await settle(ava);
    await dialog.getByRole('button', { name: 'Propose Swap' }).click();
    await dialog.waitFor({ state: 'detached' });

    const received = await ok(bea, 'GET', '/api/swaps/proposals');
    const proposal = received.find((p: Loose) => p.owner.trip.id === ids.untimed && p.status === 'open');
    await ok(bea, 'POST', `/api/swaps/proposals/${proposal.id}/accept`, {});
  });

  test('the desk shows both pilots’ check; when Bea’s rest before Ava’s trip falls short, it says why and refuses to approve', async () => {
    await dee.goto('/admin/swap-requests');
    await deskRequest().waitFor();
    await flightTimeLimits('Ava Legal').getByText('Times unknown', { exact: true }).waitFor();
    await flightTimeLimits('Bea Legal').getByText('Legal', { exact: true }).waitFor();

    // Bea flies a late day trip the evening before Ava's BOS trip would be hers.
    await ok(bea, 'POST', '/api/trips', { ...trip('VS157', 'VS158', 4, 4, 'SFO'), reportAt: `${day(4)}T12:00:00Z`, releaseAt: `${day(4)}T23:00:00Z` });
    const request = await until('the desk to find Bea’s rest too short', async () => {
      const { requests } = await ok(dee, 'GET', '/api/admin/swap-requests?status=pending');
      const found = requests.find((r: Loose) => r.owner.trip?.id === ids.untimed);
      return found?.legality?.owner?.legal === false ? found : undefined;
    });
    assert.deepEqual(request.legality.owner.reasons, [BEA_TOO_SOON]);

    await dee.reload();
    await flightTimeLimits('Bea Legal').getByText('Not legal', { exact: true }).waitFor();
    await flightTimeLimits('Bea Legal').getByText(BEA_TOO_SOON).waitFor();
    await shots(dee, 'crewing-desk-legality');
    await deskRequest().getByRole('button', { name: 'Approve' }).click();
    await confirmDialog(dee, 'Approve Swap').getByRole('button', { name: 'Approve' }).click();
    await dee.locator('.ant-notification-notice').filter({ hasText: BEA_TOO_SOON }).waitFor();
    await deskRequest().waitFor();

    const refused = await api(dee, 'POST', `/api/admin/swap-requests/${request.id}/approve`, {});
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, BEA_TOO_SOON);
  });
});
