import { addDays, PROPOSAL_MESSAGES, SUBJECTS, type Giveaway, type Pilot, type SwapAgreement, type SwapProposal, type Trip } from '@crewswap/proto';
import { freshDate, startHarness, type Harness } from './helpers';

/** Issue 53: give away and pick up. */
describe('Give away and pick up', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const post = (pilot: { id: string }, url: string, payload: object = {}) => h.service.app.inject({ method: 'POST', url, payload, cookies: h.cookies(pilot) });
  const giveaways = (pilot: Pilot, from: string, to: string) => h.service.app.inject({ method: 'GET', url: `/api/swaps/giveaways?from=${from}&to=${to}`, cookies: h.cookies(pilot) });
  const listed = async (pilot: Pilot, from: string, to: string): Promise<string[]> => {
    const response = await giveaways(pilot, from, to);
    if (response.statusCode !== 200) throw new Error(`giveaways answered ${response.statusCode}: ${response.body}`);
    return (response.json() as Giveaway[]).map((item) => item.trip.id);
  };
  const pickUp = (pilot: Pilot, offered: Trip, note?: string) => post(pilot, '/api/swaps/proposals', { offeredTripId: offered.id, myTripId: null, ...(note ? { note } : {}) });

  it('lists give-away and either offers in the window with the owner to contact, never swap-only ones; Find swaps never shows a give-away', async () => {
    const start = freshDate();
    const owner = await h.register({ rank: 'CP', fleet: 'A350', firstName: 'Alex', lastName: 'Lee' });
    const giveaway = await h.addTrip(owner, { startDate: start, isSwappable: true, offerType: 'giveaway' });
    const either = await h.addTrip(owner, { startDate: addDays(start, 5), isSwappable: true, offerType: 'either' });
    const swapOnly = await h.addTrip(owner, { startDate: addDays(start, 10), isSwappable: true, offerType: 'swap' });
    const notOffered = await h.addTrip(owner, { startDate: addDays(start, 15), offerType: 'giveaway' });
    const picker = await h.register({ rank: 'CP', fleet: 'A350' });

    const response = await giveaways(picker, start, addDays(start, 20));
    expect(response.statusCode).toBe(200);
    const items = response.json() as Giveaway[];
    expect(items.map((item) => item.trip.id)).toEqual([giveaway.id, either.id]);
    expect(items[0]).toMatchObject({ trip: { offerType: 'giveaway' }, owner: { id: owner.id, firstName: 'Alex', lastName: 'Lee', phone: owner.phone, email: owner.email } });
    expect(items.map((item) => item.trip.id)).not.toContain(swapOnly.id);
    expect(items.map((item) => item.trip.id)).not.toContain(notOffered.id);
    // The window: only trips starting inside it.
    expect(await listed(picker, addDays(start, 1), addDays(start, 6))).toEqual([either.id]);

    // Find swaps lists swap and either offers; a give-away alone is not a swap offer.
    const finder = await h.register({ rank: 'CP', fleet: 'A350' });
    const findersTrip = await h.addTrip(finder, { startDate: addDays(start, 7) });
    const found = await h.matchIds(finder, findersTrip.id, `?startDate=${start}&endDate=${addDays(start, 12)}`);
    expect(found).toEqual(expect.arrayContaining([either.id, swapOnly.id]));
    expect(found).not.toContain(giveaway.id);
  });

  it('lists only what the pilot could fly (rank, aircraft, the LTC rule), never their own, never one on the days of a trip they hold', async () => {
    const start = freshDate();
    const window = [start, addDays(start, 20)] as const;
    const captain = await h.register({ rank: 'CP', fleet: 'A330' });
    const a330 = await h.addTrip(captain, { startDate: start, aircraft: 'A330', isSwappable: true, offerType: 'giveaway' });
    const training = await h.addTrip(captain, { startDate: addDays(start, 5), aircraft: 'A330', training: true, isSwappable: true, offerType: 'either' });
    const mine = await h.addTrip(captain, { startDate: addDays(start, 10), aircraft: 'A330', isSwappable: true, offerType: 'giveaway' });

    // SFF flies the A330; an FO does not see a captain's trip; a B787 pilot cannot fly an A330.
    const sffCaptain = await h.register({ rank: 'CP', fleet: 'SFF', ltc: false });
    expect(await listed(sffCaptain, ...window)).toEqual([a330.id, mine.id]);
    const ltcCaptain = await h.register({ rank: 'CP', fleet: 'A330', ltc: true });
    expect(await listed(ltcCaptain, ...window)).toEqual([a330.id, training.id, mine.id]);
    expect(await listed(await h.register({ rank: 'FO', fleet: 'A330' }), ...window)).toEqual([]);
    expect(await listed(await h.register({ rank: 'CP', fleet: 'B787' }), ...window)).toEqual([]);
    // Never their own.
    expect(await listed(captain, ...window)).toEqual([]);
    // A trip the picker holds on one of its days (touching its last day counts) hides it.
    const busy = await h.register({ rank: 'CP', fleet: 'A330' });
    await h.addTrip(busy, { startDate: a330.endDate, endDate: addDays(a330.endDate, 1) });
    expect(await listed(busy, ...window)).toEqual([mine.id]);
  });

  it('refuses a window that is not two dates in order, in words for a person', async () => {
    const pilot = await h.register({ rank: 'CP', fleet: 'A350' });
    const backwards = await giveaways(pilot, '2026-12-10', '2026-12-01');
    expect([backwards.statusCode, backwards.json().error]).toEqual([400, 'End date cannot be before start date']);
    const notADate = await giveaways(pilot, 'soon', '2026-12-01');
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json().error).toContain('from must be a date (YYYY-MM-DD)');
  });

  it('a pick-up (myTripId null) is a proposal with no trip of the proposer; accepted, it makes an agreement of kind giveaway', async () => {
    const start = freshDate();
    const owner = await h.register({ rank: 'FO', fleet: 'B787' });
    const offered = await h.addTrip(owner, { startDate: start, isSwappable: true, offerType: 'giveaway' });
    const picker = await h.register({ rank: 'FO', fleet: 'B787' });
    const made = await pickUp(picker, offered, 'Happy to take it');
    expect(made.statusCode).toBe(201);
    const proposal = made.json() as SwapProposal;
    expect(proposal).toMatchObject({ status: 'open', mutual: false, note: 'Happy to take it', proposer: { pilot: { id: picker.id }, trip: null }, owner: { pilot: { id: owner.id }, trip: { id: offered.id } } });
    const again = await pickUp(picker, offered);
    expect([again.statusCode, again.json().error]).toEqual([409, PROPOSAL_MESSAGES.alreadyProposed]);

    const accepted = await post(owner, `/api/swaps/proposals/${proposal.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    const { agreement } = accepted.json() as { agreement: SwapAgreement };
    expect(agreement).toMatchObject({ status: 'agreed', kind: 'giveaway', reason: null, proposer: { pilot: { id: picker.id }, trip: null }, owner: { trip: { id: offered.id } } });
    const [listedAgreement] = (await h.service.app.inject({ method: 'GET', url: '/api/swaps/agreements', cookies: h.cookies(picker) })).json() as SwapAgreement[];
    expect(listedAgreement).toMatchObject({ id: agreement.id, kind: 'giveaway' });
    const event = await h.db('outbox').where({ subject: SUBJECTS.agreementMade }).whereRaw(`envelope->'data'->'agreement'->>'id' = ?`, [agreement.id]).first();
    expect(event.envelope.data.agreement).toMatchObject({ kind: 'giveaway', proposer: { trip: null } });
    // The trip is taken: it is no longer listed, and nobody else can pick it up.
    const late = await h.register({ rank: 'FO', fleet: 'B787' });
    expect(await listed(late, start, addDays(start, 5))).toEqual([]);
    expect((await pickUp(late, offered)).json().error).toBe(PROPOSAL_MESSAGES.tripTaken);
  });

  it('refuses a pick-up of a swap-only offer, a swap for a give-away-only one, one the rule does not allow, and a counter on a pick-up', async () => {
    const start = freshDate();
    const owner = await h.register({ rank: 'CP', fleet: 'A350' });
    const swapOnly = await h.addTrip(owner, { startDate: start, isSwappable: true, offerType: 'swap' });
    const giveawayOnly = await h.addTrip(owner, { startDate: addDays(start, 6), isSwappable: true, offerType: 'giveaway' });
    const picker = await h.register({ rank: 'CP', fleet: 'A350' });
    const pickersTrip = await h.addTrip(picker, { startDate: addDays(start, 7) });

    const notAGiveaway = await pickUp(picker, swapOnly);
    expect([notAGiveaway.statusCode, notAGiveaway.json().error]).toEqual([409, PROPOSAL_MESSAGES.notAGiveaway]);
    const swapForGiveaway = await post(picker, '/api/swaps/proposals', { offeredTripId: giveawayOnly.id, myTripId: pickersTrip.id });
    expect([swapForGiveaway.statusCode, swapForGiveaway.json().error]).toEqual([409, PROPOSAL_MESSAGES.giveawayOnly]);
    // The picker holds a trip on its days, and an FO flies no captain's trip.
    const overlapping = await pickUp(picker, giveawayOnly);
    expect([overlapping.statusCode, overlapping.json().error]).toEqual([400, PROPOSAL_MESSAGES.pickUpNotCompatible]);
    const officer = await h.register({ rank: 'FO', fleet: 'A350' });
    expect((await pickUp(officer, giveawayOnly)).json().error).toBe(PROPOSAL_MESSAGES.pickUpNotCompatible);
    expect(await h.db('proposals').where({ owner_trip_id: giveawayOnly.id })).toEqual([]);

    const free = await h.register({ rank: 'CP', fleet: 'A350' });
    const proposal = (await pickUp(free, giveawayOnly)).json() as SwapProposal;
    const ownersOther = await h.addTrip(owner, { startDate: addDays(start, 12) });
    const counter = await post(owner, `/api/swaps/proposals/${proposal.id}/counter`, { tripId: ownersOther.id });
    expect([counter.statusCode, counter.json().error]).toEqual([400, PROPOSAL_MESSAGES.noCounterOnPickUp]);
    expect((await h.db('proposals').where({ id: proposal.id }).first()).status).toBe('open');
  });
});
