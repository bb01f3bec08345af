import { randomUUID } from 'node:crypto';
import { addDays, EXPIRY_REASONS, PROPOSAL_MESSAGES, SUBJECTS, type Pilot, type SwapAgreement, type SwapProposal, type SwapProposalView, type Trip } from '@crewswap/proto';
import { eventually } from '@crewswap/kit-testing';
import { OFFER_WITHDRAWN_MESSAGE } from '../src/domain/offer-withdrawn';
import { freshDate, makePilot, makeTrip, startHarness, type Harness } from './helpers';

describe('Swap proposals and agreements', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const post = (pilot: { id: string }, url: string, payload: object = {}) => h.service.app.inject({ method: 'POST', url, payload, cookies: h.cookies(pilot) });
  const get = (pilot: { id: string }, url: string) => h.service.app.inject({ method: 'GET', url, cookies: h.cookies(pilot) });
  const propose = (pilot: Pilot, myTrip: Trip, offered: Trip, note?: string) => post(pilot, '/api/swaps/proposals', { offeredTripId: offered.id, myTripId: myTrip.id, ...(note ? { note } : {}) });
  const proposed = async (pilot: Pilot, myTrip: Trip, offered: Trip, note?: string): Promise<SwapProposal> => {
    const response = await propose(pilot, myTrip, offered, note);
    if (response.statusCode !== 201) throw new Error(`propose answered ${response.statusCode}: ${response.body}`);
    return response.json();
  };
  const list = async (pilot: Pilot, query = ''): Promise<SwapProposalView[]> => (await get(pilot, `/api/swaps/proposals${query}`)).json();
  const events = async (subject: string): Promise<{ data: { proposal?: SwapProposal; agreement?: SwapAgreement } }[]> =>
    (await h.db('outbox').where({ subject }).orderBy('seq')).map((row: { envelope: unknown }) => row.envelope as never);

  /** An owner with an offered trip and a proposer with a trip that fits it. */
  async function pair(start = freshDate()) {
    const owner = await h.register({ rank: 'CP', fleet: 'A350' });
    const offered = await h.addTrip(owner, { startDate: start, isSwappable: true });
    const proposer = await h.register({ rank: 'CP', fleet: 'A350' });
    const mine = await h.addTrip(proposer, { startDate: addDays(start, 1) });
    return { start, owner, offered, proposer, mine };
  }

  it('Propose Swap sends the owner a proposal of my trip for their offered trip, with a note, and tells them', async () => {
    const { owner, offered, proposer, mine } = await pair();
    const proposal = await proposed(proposer, mine, offered, 'Family wedding that weekend');
    expect(proposal).toMatchObject({ status: 'open', note: 'Family wedding that weekend', proposer: { trip: { id: mine.id }, pilot: { id: proposer.id } }, owner: { trip: { id: offered.id }, pilot: { id: owner.id } } });
    const received = await list(owner, '?role=received');
    expect(received.map((p) => [p.id, p.role])).toEqual([[proposal.id, 'received']]);
    expect((await list(proposer, '?role=sent')).map((p) => p.id)).toEqual([proposal.id]);
    expect(await list(proposer, '?role=received')).toEqual([]);
    const made = (await events(SUBJECTS.proposalMade)).map((e) => e.data.proposal?.id);
    expect(made).toContain(proposal.id);
  });

  it('refuses proposals that cannot be made, in words for a person, and changes nothing', async () => {
    const { owner, offered, proposer, mine, start } = await pair();
    const notOffered = await h.addTrip(owner, { startDate: addDays(start, 2) });
    expect((await propose(proposer, mine, notOffered)).json()).toEqual({ error: PROPOSAL_MESSAGES.offerNotFound });
    const officer = await h.register({ rank: 'FO', fleet: 'A350' });
    const officersTrip = await h.addTrip(officer, { startDate: start });
    const incompatible = await propose(officer, officersTrip, offered);
    expect([incompatible.statusCode, incompatible.json().error]).toEqual([400, PROPOSAL_MESSAGES.notCompatible]);
    const ownOffer = await h.addTrip(proposer, { startDate: addDays(start, 3), isSwappable: true });
    expect((await propose(proposer, mine, ownOffer)).json().error).toBe(PROPOSAL_MESSAGES.ownTrip);
    // Someone else's trip given as mine is answered like an unknown trip.
    const stolen = await propose(officer, mine, offered);
    expect([stolen.statusCode, stolen.json().error]).toEqual([404, PROPOSAL_MESSAGES.myTripNotFound]);
    const longNote = await propose(proposer, mine, offered, 'x'.repeat(201));
    expect([longNote.statusCode, longNote.json().error]).toEqual([400, 'The note can be at most 200 characters']);
    expect(await list(owner)).toEqual([]);
    await proposed(proposer, mine, offered);
    const again = await propose(proposer, mine, offered);
    expect([again.statusCode, again.json().error]).toEqual([409, PROPOSAL_MESSAGES.alreadyProposed]);
  });

  it('Accept agrees the swap, declines every other open proposal on either trip with "Trip no longer available", and both pilots see it', async () => {
    const { owner, offered, proposer, mine, start } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    const rival = await h.register({ rank: 'CP', fleet: 'A350' });
    const rivalTrip = await h.addTrip(rival, { startDate: start });
    const rivals = await proposed(rival, rivalTrip, offered);
    const elsewhereOwner = await h.register({ rank: 'CP', fleet: 'A350' });
    const elsewhere = await h.addTrip(elsewhereOwner, { startDate: addDays(start, 2), isSwappable: true });
    const mineElsewhere = await proposed(proposer, mine, elsewhere);

    const accepted = await post(owner, `/api/swaps/proposals/${proposal.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    const { agreement } = accepted.json() as { agreement: SwapAgreement };
    expect(agreement).toMatchObject({ status: 'agreed', proposalId: proposal.id, proposer: { trip: { id: mine.id } }, owner: { trip: { id: offered.id } } });
    const sent = await list(rival, '?role=sent');
    expect(sent.find((p) => p.id === rivals.id)).toMatchObject({ status: 'declined', reason: PROPOSAL_MESSAGES.tripNoLongerAvailable });
    expect((await list(elsewhereOwner, '?role=received'))[0]).toMatchObject({ id: mineElsewhere.id, status: 'declined', reason: 'Trip no longer available' });
    for (const pilot of [owner, proposer]) expect((await (await get(pilot, '/api/swaps/agreements')).json()).map((a: SwapAgreement) => a.id)).toEqual([agreement.id]);
    expect(await (await get(rival, '/api/swaps/agreements')).json()).toEqual([]);
    expect((await events(SUBJECTS.agreementMade)).map((e) => e.data.agreement?.id)).toContain(agreement.id);
    const declines = (await events(SUBJECTS.proposalDeclined)).map((e) => e.data.proposal);
    expect(declines.filter((p) => p?.id === rivals.id || p?.id === mineElsewhere.id)).toHaveLength(2);
    // The trips are taken: nobody can propose for them any more.
    const late = await h.register({ rank: 'CP', fleet: 'A350' });
    const lateTrip = await h.addTrip(late, { startDate: start });
    expect((await propose(late, lateTrip, offered)).json().error).toBe(PROPOSAL_MESSAGES.tripTaken);
  });

  it('a pilot never acts on another pilot\'s proposal or agreement', async () => {
    const { owner, offered, proposer, mine } = await pair();
    const stranger = await h.register({ rank: 'CP', fleet: 'A350' });
    const proposal = await proposed(proposer, mine, offered);
    for (const action of ['accept', 'decline', 'counter', 'cancel']) {
      const body = action === 'counter' ? { tripId: offered.id } : {};
      const response = await post(stranger, `/api/swaps/proposals/${proposal.id}/${action}`, body);
      expect([action, response.statusCode, response.json().error]).toEqual([action, 404, PROPOSAL_MESSAGES.proposalNotFound]);
    }
    // The proposer cannot accept their own proposal, and the owner cannot cancel it.
    expect((await post(proposer, `/api/swaps/proposals/${proposal.id}/accept`)).statusCode).toBe(404);
    expect((await post(owner, `/api/swaps/proposals/${proposal.id}/cancel`)).statusCode).toBe(404);
    expect(await list(stranger)).toEqual([]);
    const { agreement } = (await post(owner, `/api/swaps/proposals/${proposal.id}/accept`)).json() as { agreement: SwapAgreement };
    expect((await post(stranger, `/api/swaps/proposals/${proposal.id}/cancel`)).statusCode).toBe(404);
    const strangersCancel = await post(stranger, `/api/swaps/agreements/${agreement.id}/cancel`);
    expect([strangersCancel.statusCode, strangersCancel.json().error]).toEqual([404, PROPOSAL_MESSAGES.agreementNotFound]);
    expect((await get(proposer, '/api/swaps/agreements')).json()[0].status).toBe('agreed');
  });

  it('Decline takes an optional reason; the proposer can withdraw an open proposal', async () => {
    const { owner, offered, proposer, mine, start } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    const declined = await post(owner, `/api/swaps/proposals/${proposal.id}/decline`, { reason: 'Found another swap' });
    expect(declined.json()).toMatchObject({ status: 'declined', reason: 'Found another swap' });
    expect((await post(owner, `/api/swaps/proposals/${proposal.id}/accept`)).json().error).toBe(PROPOSAL_MESSAGES.notOpen);
    const other = await h.addTrip(proposer, { startDate: addDays(start, -1) });
    const second = await proposed(proposer, other, offered);
    expect((await post(proposer, `/api/swaps/proposals/${second.id}/cancel`)).json()).toMatchObject({ status: 'cancelled' });
    expect(await list(owner, '?status=open')).toEqual([]);
  });

  it('Counter answers with another of the owner\'s trips that fits; one that does not fit is refused', async () => {
    const { owner, offered, proposer, mine, start } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    const otherTrip = await h.addTrip(owner, { startDate: addDays(start, 2) });
    const tooFar = await h.addTrip(owner, { startDate: addDays(start, 12) });
    const refused = await post(owner, `/api/swaps/proposals/${proposal.id}/counter`, { tripId: tooFar.id });
    expect([refused.statusCode, refused.json().error]).toEqual([400, PROPOSAL_MESSAGES.counterNotCompatible]);
    const notMine = await post(owner, `/api/swaps/proposals/${proposal.id}/counter`, { tripId: mine.id });
    expect([notMine.statusCode, notMine.json().error]).toEqual([404, PROPOSAL_MESSAGES.counterNotFound]);
    const countered = await post(owner, `/api/swaps/proposals/${proposal.id}/counter`, { tripId: otherTrip.id, note: 'How about this one?' });
    expect(countered.statusCode).toBe(201);
    const { proposal: counter } = countered.json() as { proposal: SwapProposal };
    expect(counter).toMatchObject({ status: 'open', counterOf: proposal.id, proposer: { trip: { id: otherTrip.id } }, owner: { trip: { id: mine.id }, pilot: { id: proposer.id } } });
    expect((await list(proposer, '?role=received')).map((p) => p.id)).toEqual([counter.id]);
    expect((await list(proposer, '?role=sent'))[0]).toMatchObject({ id: proposal.id, status: 'countered' });
    const accepted = await post(proposer, `/api/swaps/proposals/${counter.id}/accept`);
    expect(accepted.json().agreement).toMatchObject({ proposer: { trip: { id: otherTrip.id } }, owner: { trip: { id: mine.id } } });
  });

  it('Cancel ends an agreed swap before crewing answers and frees both trips; crewing approves once, at the desk', async () => {
    const { owner, offered, proposer, mine } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    const { agreement } = (await post(owner, `/api/swaps/proposals/${proposal.id}/accept`)).json() as { agreement: SwapAgreement };
    // The proposal's own Cancel withdraws an open proposal only: an agreed swap is cancelled as such.
    const meantForTheProposal = await post(proposer, `/api/swaps/proposals/${proposal.id}/cancel`);
    expect([meantForTheProposal.statusCode, meantForTheProposal.json().error]).toEqual([409, PROPOSAL_MESSAGES.alreadyAccepted]);
    expect((await post(proposer, `/api/swaps/agreements/${agreement.id}/cancel`)).json()).toMatchObject({ id: agreement.id, status: 'cancelled', closedBy: proposer.id });
    expect((await list(owner)).find((p) => p.id === proposal.id)).toMatchObject({ status: 'cancelled' });
    expect((await get(owner, '/api/swaps/agreements')).json()[0]).toMatchObject({ id: agreement.id, status: 'cancelled', closedBy: proposer.id });
    expect((await events(SUBJECTS.agreementCancelled)).map((e) => e.data.agreement?.id)).toContain(agreement.id);
    const again = await proposed(proposer, mine, offered);
    const second = (await post(owner, `/api/swaps/proposals/${again.id}/accept`)).json().agreement as SwapAgreement;
    const admin = randomUUID();
    expect(await h.service.swapRequests.approve.execute({ adminId: admin, id: second.id })).toMatchObject({ status: 'approved', decidedBy: admin });
    await expect(h.service.swapRequests.refuse.execute({ adminId: admin, id: second.id, reason: 'Too late' })).rejects.toThrow(PROPOSAL_MESSAGES.requestNotPending);
    const late = await post(proposer, `/api/swaps/agreements/${second.id}/cancel`);
    expect([late.statusCode, late.json().error]).toEqual([409, PROPOSAL_MESSAGES.crewingAnswered]);
    const cancelledTwice = await post(owner, `/api/swaps/agreements/${agreement.id}/cancel`);
    expect([cancelledTwice.statusCode, cancelledTwice.json().error]).toEqual([409, PROPOSAL_MESSAGES.notCancellable]);
    // The test's clock stands still, so both were agreed at the same instant: compared by id, not order.
    const history = (await get(proposer, '/api/swaps/agreements')).json() as SwapAgreement[];
    expect(Object.fromEntries(history.map((a) => [a.id, a.status]))).toEqual({ [second.id]: 'approved', [agreement.id]: 'cancelled' });
  });

  it('says whether a proposal is Mutual: the owner could take the proposer\'s trip too, and nobody is left with two trips on a day', async () => {
    const { owner, offered, proposer, mine } = await pair();
    const mutual = await proposed(proposer, mine, offered);
    expect(mutual.mutual).toBe(true);
    expect((await list(owner))[0]).toMatchObject({ id: mutual.id, mutual: true });

    const busy = await pair();
    // Taking the proposer's trip would give this owner two trips on one day.
    await h.addTrip(busy.owner, { startDate: addDays(busy.start, 4) });
    const oneWay = await proposed(busy.proposer, busy.mine, busy.offered);
    expect(oneWay.mutual).toBe(false);
    expect((await list(busy.owner))[0]).toMatchObject({ id: oneWay.id, mutual: false });
  });

  it('shows the owner whether taking the proposer\'s trip clashes with one of their own trips', async () => {
    const { owner, offered, proposer, mine, start } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    expect((await list(owner))[0]).toMatchObject({ id: proposal.id, clashes: false });
    await h.addTrip(owner, { startDate: addDays(start, 4) });
    expect((await list(owner))[0]).toMatchObject({ id: proposal.id, clashes: true });
    expect((await list(proposer))[0]).toMatchObject({ id: proposal.id, clashes: false });
  });

  it('a proposal expires when either trip changes, is deleted or starts; the cleanup prunes it', async () => {
    const { owner, offered, proposer, mine, start } = await pair();
    const changed = await proposed(proposer, mine, offered);
    // A change that keeps flights, dates, route and aircraft (a new description) leaves it open.
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...offered, swapDescription: 'Please' } }, 2);
    expect((await list(owner))[0]).toMatchObject({ id: changed.id, status: 'open' });
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...mine, flightNoStart: 'VS009' }, origin: { channel: 'roster_upload' } }, 2);
    expect((await list(owner))[0]).toMatchObject({ id: changed.id, status: 'expired', reason: EXPIRY_REASONS.changed });

    const other = await h.addTrip(proposer, { startDate: addDays(start, -1) });
    const deleted = await proposed(proposer, other, offered);
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: other.id, pilotId: proposer.id, origin: { channel: 'app' } }, 2);
    expect((await list(owner)).find((p) => p.id === deleted.id)).toMatchObject({ status: 'expired', reason: EXPIRY_REASONS.deleted });

    const third = await h.addTrip(proposer, { startDate: addDays(start, 2) });
    const started = await proposed(proposer, third, offered);
    h.clock.set(`${start}T09:00:00Z`);
    try {
      expect(await h.db.transaction((trx) => h.service.expireProposals.started(trx))).toBeGreaterThanOrEqual(1);
    } finally {
      h.clock.set('2026-11-01T12:00:00Z');
    }
    expect((await list(owner)).find((p) => p.id === started.id)).toMatchObject({ status: 'expired', reason: EXPIRY_REASONS.started });

    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: offered.id, pilotId: owner.id, origin: { channel: 'system' } }, 3);
    expect(await list(owner)).toEqual([]);
    expect(await list(proposer)).toEqual([]);
  });

  it("the proposer is told 'A trip you were looking at is no longer offered' when the offered trip changes or goes; not when their own trip does", async () => {
    const told = async (pilotId: string) =>
      (await h.db('outbox').where({ subject: SUBJECTS.sendPush }).orderBy('seq'))
        .map((row: { envelope: { data: { pilotId: string; title: string } } }) => row.envelope.data)
        .filter((push: { pilotId: string; title: string }) => push.pilotId === pilotId && push.title === OFFER_WITHDRAWN_MESSAGE);
    const { offered, proposer, mine } = await pair();
    await proposed(proposer, mine, offered);
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...mine, flightNoStart: 'VS009' }, origin: { channel: 'roster_upload' } }, 2);
    expect(await told(proposer.id)).toEqual([]);

    const gone = await pair();
    await proposed(gone.proposer, gone.mine, gone.offered);
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: gone.offered.id, pilotId: gone.owner.id, origin: { channel: 'roster_upload' } }, 2);
    expect(await told(gone.proposer.id)).toHaveLength(1);
  });

  it("refuses to accept a proposal on a trip the owner has withdrawn from offer: 'This trip is no longer offered'", async () => {
    const { owner, offered, proposer, mine } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...offered, isSwappable: false } }, 2);
    const accepted = await post(owner, `/api/swaps/proposals/${proposal.id}/accept`);
    expect([accepted.statusCode, accepted.json().error]).toEqual([409, 'This trip is no longer offered']);
    expect(await h.db('agreements').where({ proposal_id: proposal.id })).toEqual([]);
    expect((await list(owner)).find((p) => p.id === proposal.id)).toMatchObject({ status: 'open' });
  });

  it("accepting after the proposer deleted their trip says what happened: 'The other pilot no longer has this trip'", async () => {
    const { owner, offered, proposer, mine } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: mine.id, pilotId: proposer.id, origin: { channel: 'app' } }, 2);
    const accepted = await post(owner, `/api/swaps/proposals/${proposal.id}/accept`);
    expect([accepted.statusCode, accepted.json().error]).toEqual([409, 'The other pilot no longer has this trip']);
    expect(await h.db('agreements').where({ proposal_id: proposal.id })).toEqual([]);
  });

  it('a trip deleted while in an agreed swap cancels the swap, frees the other trip and tells the other pilot; a swap crewing approved stays', async () => {
    const { owner, offered, proposer, mine } = await pair();
    const proposal = await proposed(proposer, mine, offered);
    const { agreement } = (await post(owner, `/api/swaps/proposals/${proposal.id}/accept`)).json() as { agreement: SwapAgreement };
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: offered.id, pilotId: owner.id, origin: { channel: 'app' } }, 2);
    expect((await get(proposer, '/api/swaps/agreements')).json()[0]).toMatchObject({ id: agreement.id, status: 'cancelled', closedBy: owner.id });
    // The agreementCancelled event is what tells the proposer (notifications' push and mail, realtime's bell).
    const cancelled = (await events(SUBJECTS.agreementCancelled)) as { data: { agreement?: SwapAgreement; by?: string } }[];
    expect(cancelled.filter((e) => e.data.agreement?.id === agreement.id).map((e) => e.data.by)).toEqual([owner.id]);
    expect(await h.db('agreement_trips').where({ agreement_id: agreement.id })).toEqual([]);

    const approved = await pair();
    const kept = await proposed(approved.proposer, approved.mine, approved.offered);
    const swap = (await post(approved.owner, `/api/swaps/proposals/${kept.id}/accept`)).json().agreement as SwapAgreement;
    await h.service.swapRequests.approve.execute({ adminId: randomUUID(), id: swap.id });
    // Crewing approved it: the trip leaving the roster is the swap being done.
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: approved.mine.id, pilotId: approved.proposer.id, origin: { channel: 'roster_upload' } }, 2);
    expect((await get(approved.owner, '/api/swaps/agreements')).json()[0]).toMatchObject({ id: swap.id, status: 'approved' });
  });

  it('a proposal on a trip the owner offered a moment ago works at once, before trips has told swaps of it', async () => {
    const start = freshDate();
    const owner = await h.register({ rank: 'CP', fleet: 'A350' });
    const proposer = await h.register({ rank: 'CP', fleet: 'A350' });
    const mine = await h.addTrip(proposer, { startDate: addDays(start, 1) });
    const created = await h.addTrip(owner, { startDate: start });
    const offered = { ...created, isSwappable: true };
    // Committed to trips' outbox, and not yet published: the proposer taps Propose Swap at once.
    await h.publish(SUBJECTS.tripOffered, { trip: offered }, 2);
    const proposal = await propose(proposer, mine, offered);
    expect([proposal.statusCode, proposal.json().owner?.trip?.id]).toEqual([201, offered.id]);
  });

  it("an accept racing the proposer's cancel: exactly one wins and the other gets 409, 50 times out of 50", async () => {
    const start = freshDate();
    const rounds = Array.from({ length: 50 }, () => {
      const [owner, proposer] = [makePilot({ rank: 'CP', fleet: 'A350' }), makePilot({ rank: 'CP', fleet: 'A350' })];
      return { owner, proposer, offered: makeTrip(owner, { startDate: start, isSwappable: true }), mine: makeTrip(proposer, { startDate: addDays(start, 1) }) };
    });
    // Written in one go, in order: once the last of each stream is applied, all of it is.
    const write = h.publisher.outbox;
    const pilots = await h.publisher.db.transaction((trx) => write.writeMany(trx, SUBJECTS.pilotRegistered, rounds.flatMap((r) => [r.owner, r.proposer]).map((pilot) => ({ data: { pilot } }))));
    const trips = await h.publisher.db.transaction(async (trx) => [
      ...(await write.writeMany(trx, SUBJECTS.tripCreated, rounds.map((r) => ({ data: { trip: r.mine } })))),
      ...(await write.writeMany(trx, SUBJECTS.tripOffered, rounds.map((r) => ({ data: { trip: r.offered } })))),
    ]);
    for (const last of [pilots.at(-1)!, trips.at(-1)!]) await eventually(() => h.db('processed_events').where({ event_id: last.id }).first(), 60_000);
    for (const [round, r] of rounds.entries()) {
      const proposal = await proposed(r.proposer, r.mine, r.offered);
      const [accept, cancel] = await Promise.all([post(r.owner, `/api/swaps/proposals/${proposal.id}/accept`), post(r.proposer, `/api/swaps/proposals/${proposal.id}/cancel`)]);
      expect([round, [accept.statusCode, cancel.statusCode].sort()]).toEqual([round, [200, 409]]);
      const accepted = accept.statusCode === 200;
      expect([round, (accepted ? cancel : accept).json().error]).toEqual([round, accepted ? PROPOSAL_MESSAGES.alreadyAccepted : PROPOSAL_MESSAGES.withdrawn]);
      // The final state is the winner's alone: an agreement still agreed, or a withdrawn proposal and no agreement.
      const row = await h.db('proposals').where({ id: proposal.id }).first();
      const agreements = await h.db('agreements').where({ proposal_id: proposal.id });
      expect([round, row.status, agreements.map((a: { status: string }) => a.status)]).toEqual([round, accepted ? 'accepted' : 'cancelled', accepted ? ['agreed'] : []]);
    }
  }, 120_000);

  it('two accepts racing for one trip give exactly one agreement and one clear refusal, 100 times out of 100', async () => {
    const start = freshDate();
    // Each round: two owners accept, at the same moment, proposals that give the same trip of one proposer.
    const rounds = Array.from({ length: 100 }, () => {
      const [shared, ownerA, ownerB] = [makePilot({ rank: 'CP', fleet: 'A350' }), makePilot({ rank: 'CP', fleet: 'A350' }), makePilot({ rank: 'CP', fleet: 'A350' })];
      return { shared, ownerA, ownerB, sharedTrip: makeTrip(shared, { startDate: start }), tripA: makeTrip(ownerA, { startDate: start, isSwappable: true }), tripB: makeTrip(ownerB, { startDate: start, isSwappable: true }) };
    });
    // Written in one go, in order: once the last of each stream is applied, all of it is.
    const write = h.publisher.outbox;
    const pilots = await h.publisher.db.transaction((trx) => write.writeMany(trx, SUBJECTS.pilotRegistered, rounds.flatMap((r) => [r.shared, r.ownerA, r.ownerB]).map((pilot) => ({ data: { pilot } }))));
    const trips = await h.publisher.db.transaction(async (trx) => [
      ...(await write.writeMany(trx, SUBJECTS.tripCreated, rounds.map((r) => ({ data: { trip: r.sharedTrip } })))),
      ...(await write.writeMany(trx, SUBJECTS.tripOffered, rounds.flatMap((r) => [r.tripA, r.tripB]).map((trip) => ({ data: { trip } })))),
    ]);
    for (const last of [pilots.at(-1)!, trips.at(-1)!]) await eventually(() => h.db('processed_events').where({ event_id: last.id }).first(), 120_000);
    for (const [round, r] of rounds.entries()) {
      const [toA, toB] = [await proposed(r.shared, r.sharedTrip, r.tripA), await proposed(r.shared, r.sharedTrip, r.tripB)];
      const answers = await Promise.all([post(r.ownerA, `/api/swaps/proposals/${toA.id}/accept`), post(r.ownerB, `/api/swaps/proposals/${toB.id}/accept`)]);
      const codes = answers.map((answer) => answer.statusCode).sort();
      expect([round, codes]).toEqual([round, [200, 409]]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json().error).toBe(PROPOSAL_MESSAGES.tripTaken);
      const agreements = await h.db('agreements').whereIn('proposal_id', [toA.id, toB.id]);
      expect([round, agreements.length]).toEqual([round, 1]);
    }
  }, 300_000);
});
