import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addTrip, api, BASE_URL, confirmDialog, keptCacheHolds, launchBrowser, ok, openHeaderAction, PHONE, pilotData, register, screenshot, signUpByApi } from './support';

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function trip(start: string, end: string, from: number) {
  return { flightNoStart: start, flightNoEnd: end, aircraft: 'A350', route: 'JFK', startDate: inDays(from), endDate: inDays(from + 2) };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A trip added to the pilot's roster from outside the page (another device), with the page's session. */
async function addTripElsewhere(context: BrowserContext, body: ReturnType<typeof trip>): Promise<void> {
  const cookie = (await context.cookies(BASE_URL)).map(({ name, value }) => `${name}=${value}`).join('; ');
  const added = await fetch(`${BASE_URL}/api/trips`, {
    method: 'POST',
    headers: { cookie, origin: BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(added.ok, `POST /api/trips answered ${added.status}: ${await added.text()}`);
}

describe('the app without a network', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: PHONE, baseURL: BASE_URL });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    if (process.env.E2E_LOGS) page.on('console', (message) => console.log(`[page] ${message.text()}`));
    await register(page, pilotData('Offline'));
    await ok(page, 'POST', '/api/trips', trip('VS901', 'VS902', 10));
  });
  after(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
  });

  test('opens offline on the trips the pilot saw, and catches up by itself back online', async () => {
    await page.reload();
    const first = page.getByRole('article', { name: /^Trip VS901\/VS902/ });
    await first.waitFor();
    // The service worker holds the app's code once it controls the page; the data is the page's own.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await until(() => keptCacheHolds(page, 'VS901'), 'the trips kept in IndexedDB');

    await context.setOffline(true);
    await page.reload();
    await first.waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'Offline' });
    assert.match((await banner.textContent()) ?? '', /Offline — showing what you saw at \d\d:\d\d/);
    assert.equal(await page.getByRole('button', { name: 'Refresh trips' }).isDisabled(), true, 'refresh needs the server');
    await screenshot(page, 'offline-trips-phone');

    // Meanwhile the pilot's roster changes elsewhere (another device, the email import).
    await addTripElsewhere(context, trip('VS903', 'VS904', 20));

    await context.setOffline(false);
    await page.getByRole('article', { name: /^Trip VS903\/VS904/ }).waitFor();
    await banner.waitFor({ state: 'detached' });
  });

  test('on a network that reaches nothing while the phone says it is online (hotel wifi), the app says it is offline and comes back by itself', async () => {
    await until(() => keptCacheHolds(page, 'VS903'), 'the trips kept');
    // Connected to something that answers nothing: the browser still says it is online.
    const nothingAnswers = '**/api/**';
    await context.route(nothingAnswers, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.getByRole('article', { name: /^Trip VS903\/VS904/ }).waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'Offline' });
    await banner.waitFor();
    assert.equal(await page.evaluate(() => navigator.onLine), true, 'the browser believes it is online');
    assert.match((await banner.textContent()) ?? '', /Offline — showing what you saw at \d\d:\d\d/);
    assert.equal(await page.getByRole('button', { name: 'Refresh trips' }).isDisabled(), true, 'refresh needs the server');
    assert.equal(await page.getByRole('alert').filter({ hasText: 'Failed to load trips' }).count(), 0, 'the banner says it, not a failure');
    await screenshot(page, 'offline-hotel-wifi-phone');
    // A view never opened online has nothing kept: it says so rather than showing no offers.
    await openHeaderAction(page, 'Calendars');
    await page.getByRole('dialog', { name: 'Choose Calendar View' }).getByRole('button', { name: 'Swap Calendar' }).click();
    const swapCalendar = page.getByRole('dialog', { name: 'Swap Calendar' });
    await swapCalendar.getByText('Needs a connection: you are offline.').waitFor();
    await screenshot(page, 'offline-not-kept-phone');
    await swapCalendar.getByRole('button', { name: 'Close' }).last().click();
    await swapCalendar.waitFor({ state: 'detached' });

    await addTripElsewhere(context, trip('VS905', 'VS906', 30));

    // The server answers again: within one probe (10 s) the app is online and shows the new trip.
    await context.unroute(nothingAnswers);
    await page.getByRole('article', { name: /^Trip VS905\/VS906/ }).waitFor({ timeout: 30_000 });
    await banner.waitFor({ state: 'detached' });
  });

  test('logging out leaves nothing of the pilot in the kept cache', async () => {
    await until(() => keptCacheHolds(page, 'VS905'), 'the new trip kept');
    await openHeaderAction(page, 'Logout');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    await until(
      () =>
        page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              if (localStorage.getItem('crewswap-cache-owner')) return resolve(false);
              const opening = indexedDB.open('keyval-store');
              opening.onsuccess = () => {
                const counting = opening.result.transaction('keyval').objectStore('keyval').count();
                counting.onsuccess = () => resolve(counting.result === 0);
              };
            }),
        ),
      'the kept cache emptied',
    );
  });
});

/**
 * Issue 57: changes made offline wait on the device and go once the network is back. Cara offers
 * a trip, changes an offer's description, accepts Dan's proposal and adds two trips, all offline;
 * closes and opens the app again (still offline: the changes still wait); back online they land
 * once. Dan withdrew his other proposal meanwhile, and a roster import gave Cara a trip on the
 * days of her second new one: those show the server's sentence.
 */
describe('changes made offline wait and go', () => {
  type Loose = any;
  let browser: Browser;
  let context: BrowserContext;
  let danContext: BrowserContext;
  let page: Page;
  let dan: Page;
  const ids: Record<string, string> = {};

  before(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: PHONE, baseURL: BASE_URL });
    danContext = await browser.newContext({ viewport: PHONE, baseURL: BASE_URL });
    page = await context.newPage();
    dan = await danContext.newPage();
    page.setDefaultTimeout(15_000);
    if (process.env.E2E_LOGS) page.on('console', (message) => console.log(`[page] ${message.text()}`));
    await signUpByApi(page, { firstName: 'Cara', lastName: 'Queued', tag: 'offline' });
    await signUpByApi(dan, { firstName: 'Dan', lastName: 'Proposer', tag: 'offline' });
    const add = async (who: Page, body: ReturnType<typeof trip>) => (await ok<Loose>(who, 'POST', '/api/trips', body)).id as string;
    // Days 310-321, which no other journey uses: these are offered JFK trips, and the wishes journey's
    // wish for JFK on days 168-178 must find none of them on the stack they share.
    ids.toOffer = await add(page, trip('VS911', 'VS912', 310));
    ids.described = await add(page, trip('VS913', 'VS914', 313));
    ids.accepted = await add(page, trip('VS915', 'VS916', 316));
    ids.withdrawn = await add(page, trip('VS917', 'VS918', 319));
    for (const id of [ids.described, ids.accepted, ids.withdrawn]) await ok(page, 'PATCH', `/api/trips/${id}/swappable`, { isSwappable: true, swapDescription: 'Weekend off please' });
    ids.danFirst = await add(dan, trip('VS921', 'VS922', 316));
    ids.danSecond = await add(dan, trip('VS923', 'VS924', 319));
    // Swaps learns of the offers from trips' events a moment later.
    const propose = async (offeredTripId: string, myTripId: string) => {
      await until(async () => (await api(dan, 'POST', '/api/swaps/proposals', { offeredTripId, myTripId })).status === 201, 'a proposal to Cara');
    };
    await propose(ids.accepted!, ids.danFirst!);
    await propose(ids.withdrawn!, ids.danSecond!);
    const sent = await ok<Loose[]>(dan, 'GET', '/api/swaps/proposals?role=sent');
    ids.proposalToWithdraw = sent.find((p: Loose) => p.owner.trip.id === ids.withdrawn).id;
  });
  after(async () => {
    await context?.close().catch(() => {});
    await danContext?.close().catch(() => {});
    await browser?.close();
  });

  const card = (p: Page, flights: string) => p.getByRole('article', { name: new RegExp(`^Trip ${flights}`) });
  const proposals = async (p: Page) => {
    await openHeaderAction(p, 'Swap Proposals');
    return p.getByRole('dialog', { name: 'Swap Proposals' });
  };

  test('offline, the pilot offers a trip, edits a description and accepts proposals: each waits on its card', async () => {
    await page.goto('/');
    await card(page, 'VS911/VS912').waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    // The proposals seen online once, so that they are kept for offline.
    let dialog = await proposals(page);
    await dialog.getByRole('article', { name: 'Proposal from Dan Proposer' }).first().waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await until(() => keptCacheHolds(page, 'Dan'), 'the proposals kept');

    await context.setOffline(true);
    await page.reload();
    await card(page, 'VS911/VS912').waitFor();

    await card(page, 'VS911/VS912').getByRole('button', { name: 'Keep / Swap' }).click();
    let manage = page.getByRole('dialog', { name: 'Manage Trip' });
    await manage.getByRole('button', { name: 'Swap', exact: true }).click();
    await manage.getByRole('button', { name: 'Offered for Swap' }).waitFor();
    await manage.getByRole('button', { name: 'Close' }).last().click();
    await manage.waitFor({ state: 'detached' });
    await card(page, 'VS911/VS912').getByText('Waiting to send').waitFor();

    await card(page, 'VS913/VS914').getByRole('button', { name: 'Keep / Swap' }).click();
    manage = page.getByRole('dialog', { name: 'Manage Trip' });
    await manage.getByLabel('Swap description').fill('Any JFK trip in December');
    // Saved by itself 2 s after typing stops.
    await card(page, 'VS913/VS914').getByText('Waiting to send').waitFor();
    await manage.getByRole('button', { name: 'Close' }).last().click();
    await manage.waitFor({ state: 'detached' });
    await card(page, 'VS913/VS914').getByText('“Any JFK trip in December”').waitFor();

    // Meanwhile Dan withdraws his second proposal.
    await ok(dan, 'POST', `/api/swaps/proposals/${ids.proposalToWithdraw}/cancel`, {});

    dialog = await proposals(page);
    for (const flights of ['VS921/VS922', 'VS923/VS924']) {
      const proposal = dialog.getByRole('article', { name: 'Proposal from Dan Proposer' }).filter({ hasText: flights });
      await proposal.getByRole('button', { name: 'Accept' }).click();
      await confirmDialog(page, 'Accept Swap').getByRole('button', { name: 'Accept' }).click();
      await proposal.getByText('Waiting to send').waitFor();
    }
    await screenshot(page, 'offline-changes-waiting-phone');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });

    // Two new trips, each a card of its own that waits and cannot be changed yet.
    for (const [start, end, from] of [['931', '932', 30], ['941', '942', 40]] as const) {
      const form = await addTrip(page, { start, end, route: 'JFK', from: inDays(from), to: inDays(from + 2) });
      await form.getByRole('button', { name: 'Add Trip' }).click();
      await form.waitFor({ state: 'detached' });
      await card(page, `VS${start}/VS${end}`).getByText('Waiting to send').waitFor();
    }
    assert.equal(await card(page, 'VS931/VS932').getByRole('button', { name: 'Keep / Swap' }).isDisabled(), true, 'not on the server yet');
    // Meanwhile a roster import puts a trip on the second one's days.
    await addTripElsewhere(context, trip('VS951', 'VS952', 41));
  });

  test('closed and opened again offline, the changes still wait; back online they land once, and the one the server refuses says why', async () => {
    await until(() => keptCacheHolds(page, 'Any JFK trip in December'), 'the changes kept');
    // The last change made: everything before it is kept too.
    await until(() => keptCacheHolds(page, 'VS942'), 'the new trips kept');
    await page.close();
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto('/');
    await card(page, 'VS911/VS912').getByText('Waiting to send').waitFor();
    await card(page, 'VS913/VS914').getByText('Waiting to send').waitFor();
    await card(page, 'VS931/VS932').getByText('Waiting to send').waitFor();
    await card(page, 'VS941/VS942').getByText('Waiting to send').waitFor();
    const dialog = await proposals(page);
    const withdrawn = dialog.getByRole('article', { name: 'Proposal from Dan Proposer' }).filter({ hasText: 'VS923/VS924' });
    await withdrawn.getByText('Waiting to send').waitFor();

    await context.setOffline(false);
    await withdrawn.getByText(/^Not saved: /).waitFor({ timeout: 30_000 });
    await screenshot(page, 'offline-change-refused-phone');

    const trips = await ok<Loose[]>(page, 'GET', '/api/trips');
    const byId = (id: string) => trips.find((t: Loose) => t.id === id);
    assert.equal(byId(ids.toOffer!).isSwappable, true);
    assert.equal(byId(ids.described!).swapDescription, 'Any JFK trip in December');
    const received = await ok<Loose[]>(page, 'GET', '/api/swaps/proposals?role=received');
    const statusOf = (tripId: string) => received.filter((p: Loose) => p.owner.trip.id === tripId).map((p: Loose) => p.status);
    assert.deepEqual(statusOf(ids.accepted!), ['accepted']);
    assert.deepEqual(statusOf(ids.withdrawn!), ['cancelled']);
    // Landed once: one agreement, whatever was sent again.
    const agreements = await ok<Loose[]>(page, 'GET', '/api/swaps/agreements');
    assert.equal(agreements.length, 1);

    // The first new trip is on the server once, its card now the server's; the second was refused.
    const flights = (await ok<Loose[]>(page, 'GET', '/api/trips')).map((t: Loose) => `${t.flightNoStart}/${t.flightNoEnd}`);
    assert.equal(flights.filter((f: string) => f === 'VS931/VS932').length, 1);
    assert.equal(flights.includes('VS941/VS942'), false);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    const refused = card(page, 'VS941/VS942');
    await refused.getByText(/^Not saved: Trip dates conflict with existing trip: VS951\/VS952/).waitFor({ timeout: 30_000 });
    await card(page, 'VS931/VS932').getByRole('button', { name: 'Keep / Swap', disabled: false }).waitFor();
    assert.equal(await card(page, 'VS931/VS932').count(), 1);
    await screenshot(page, 'offline-new-trip-refused-phone');
    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await refused.waitFor({ state: 'detached' });
  });
});
