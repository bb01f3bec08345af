import { addDays, daysBetween, numericDate, SUBJECTS, SwapMatch, SwapMatchPage, type Aircraft, type Fleet } from '@crewswap/proto';
import { dateSlots, makePilot, makeTrip, startHarness, TODAY, type Harness } from './helpers';

// Find swaps works on any date, and query dates must lie between a year back and two years ahead:
// this file's 30-odd tests fit 25 days apart only when they start a year back.
// Slots near the harness clock's today are skipped: offers there would be Urgent and come first.
const slots = dateSlots('2025-11-11');
function freshDate(): string {
  let date = slots();
  while (Math.abs(daysBetween(TODAY, date)) < 20) date = slots();
  return date;
}

describe('Find swaps: GET /api/trips/{id}/matches', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('lists offered trips of other pilots of the same rank who fly the same aircraft, with their contact and phone for WhatsApp', async () => {
    const start = freshDate();
    const me = await h.register({ rank: 'CP', fleet: 'A350' });
    const mine = await h.addTrip(me, { startDate: start });
    const captain = await h.register({ rank: 'CP', fleet: 'A350', phone: '+447700900123' });
    const offer = await h.addTrip(captain, { startDate: addDays(start, 1), isSwappable: true, swapDescription: 'Happy to swap' });
    const officer = await h.register({ rank: 'FO', fleet: 'A350' });
    await h.addTrip(officer, { startDate: start, isSwappable: true });
    const b787 = await h.register({ rank: 'CP', fleet: 'B787' });
    await h.addTrip(b787, { startDate: start, isSwappable: true });
    await h.addTrip(captain, { startDate: addDays(start, 2), isSwappable: false, flightNoStart: 'VS003' });
    await h.addTrip(me, { startDate: addDays(start, 2), isSwappable: true, flightNoStart: 'VS005' });

    const response = await h.matches(me, mine.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body: unknown = response.json();
    expect(SwapMatch.array().safeParse(body).success).toBe(true);
    // Only what the app shows of the offer and of the pilot: no ids, roster text or bookkeeping.
    expect(body).toEqual([
      {
        trip: {
          id: offer.id,
          flightNoStart: offer.flightNoStart,
          flightNoEnd: offer.flightNoEnd,
          aircraft: offer.aircraft,
          route: offer.route,
          startDate: offer.startDate,
          endDate: offer.endDate,
          training: false,
          requested: false,
          swapDescription: 'Happy to swap',
          // The value line's fields (issue 55): unknown without times, nights from the dates.
          blockMinutes: null,
          nightsAway: 2,
          landings: null,
        },
        pilot: {
          firstName: captain.firstName,
          lastName: captain.lastName,
          email: captain.email,
          phone: '+447700900123',
          rank: 'CP',
          fleet: 'A350',
          base: 'LHR',
        },
        sameDates: false,
        // The captain's own trip two days on clashes with mine: taking mine would double-book them.
        mutual: false,
        urgent: false,
        // Typed trips have no times (issue 55): whether I may fly it is not known, and why.
        legal: 'unknown',
        reasons: [`Times are not known for VS005 on ${numericDate(addDays(start, 2))}`, `Times are not known for ${offer.flightNoStart} on ${numericDate(offer.startDate)}`],
      },
    ]);
  });

  // [asker fleet, asker's aircraft, offering fleet, offer's aircraft, match?]
  const fleetCases: [Fleet, Aircraft, Fleet, Aircraft, boolean][] = [
    ['A330', 'A330', 'A330', 'A330', true],
    ['A350', 'A350', 'A350', 'A350', true],
    ['B787', 'B787', 'B787', 'B787', true],
    ['A350', 'A350', 'A330', 'A330', false],
    ['B787', 'B787', 'A350', 'A350', false],
    ['SFF', 'A350', 'A350', 'A350', true],
    ['A350', 'A350', 'SFF', 'A350', true],
    ['SFF', 'A330', 'A330', 'A330', true],
    ['A330', 'A330', 'SFF', 'A330', true],
    ['SFF', 'A330', 'SFF', 'A350', true],
    ['SFF', 'SFF', 'SFF', 'SFF', true],
    ['SFF', 'SFF', 'A350', 'A350', false],
    ['A350', 'A350', 'SFF', 'SFF', false],
    ['A330', 'A330', 'SFF', 'A350', false],
    ['SFF', 'B787', 'B787', 'B787', false],
  ];
  it.each(fleetCases)('a %s pilot with a %s trip and a %s pilot offering a %s trip: match %s (each must fly the other’s aircraft)', async (myFleet, myAircraft, theirFleet, theirAircraft, expected) => {
    const start = freshDate();
    const me = await h.register({ fleet: myFleet });
    const mine = await h.addTrip(me, { startDate: start, aircraft: myAircraft });
    const them = await h.register({ fleet: theirFleet });
    const offer = await h.addTrip(them, { startDate: start, aircraft: theirAircraft, isSwappable: true });
    expect(await h.matchIds(me, mine.id)).toEqual(expected ? [offer.id] : []);
  });

  it('shows training trips offered for swap only to LTC captains', async () => {
    const start = freshDate();
    const trainer = await h.register({ rank: 'CP', ltc: true });
    const trainerTrip = await h.addTrip(trainer, { startDate: start });
    const captain = await h.register({ rank: 'CP', ltc: false });
    const captainTrip = await h.addTrip(captain, { startDate: start });
    const otherTrainer = await h.register({ rank: 'CP', ltc: true });
    const training = await h.addTrip(otherTrainer, { startDate: start, training: true, isSwappable: true });
    const ordinary = await h.addTrip(otherTrainer, { startDate: addDays(start, 5), endDate: addDays(start, 6), isSwappable: true });

    expect(await h.matchIds(trainer, trainerTrip.id, `?startDate=${start}&endDate=${addDays(start, 6)}`)).toEqual([training.id, ordinary.id]);
    expect(await h.matchIds(captain, captainTrip.id, `?startDate=${start}&endDate=${addDays(start, 6)}`)).toEqual([ordinary.id]);
  });

  it('finds swaps for a training trip only among LTC captains, who alone could fly it', async () => {
    const start = freshDate();
    const trainer = await h.register({ rank: 'CP', ltc: true });
    const trainingTrip = await h.addTrip(trainer, { startDate: start, training: true });
    const captain = await h.register({ rank: 'CP', ltc: false });
    await h.addTrip(captain, { startDate: start, isSwappable: true });
    const otherTrainer = await h.register({ rank: 'CP', ltc: true });
    const fromTrainer = await h.addTrip(otherTrainer, { startDate: start, isSwappable: true });
    expect(await h.matchIds(trainer, trainingTrip.id)).toEqual([fromTrainer.id]);
  });

  it('never lists standby duties, and a standby duty finds no swaps', async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start });
    const standby = await h.addTrip(me, { startDate: addDays(start, 5), flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true });
    const other = await h.register();
    await h.addTrip(other, { startDate: start, flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, isSwappable: true });
    const real = await h.addTrip(other, { startDate: addDays(start, 5), endDate: addDays(start, 6), isSwappable: true });
    expect(await h.matchIds(me, mine.id)).toEqual([]);
    expect(await h.matchIds(me, standby.id)).toEqual([]);
    expect(real.isSwappable).toBe(true);
  });

  it("still counts the offers of a deleted pilot and of a pilot with Master Roster off", async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start });
    const masterRosterOff = await h.register({ usualReq: false });
    const offOffer = await h.addTrip(masterRosterOff, { startDate: start, isSwappable: true });
    const leaving = await h.register();
    const leftOffer = await h.addTrip(leaving, { startDate: addDays(start, 1), isSwappable: true });
    await h.publishAndWait(SUBJECTS.pilotDeleted, { pilotId: leaving.id, employeeId: leaving.employeeId });

    const body = (await h.matches(me, mine.id)).json() as SwapMatch[];
    expect(body.map((match) => match.trip.id)).toEqual([offOffer.id, leftOffer.id]);
    expect(body[1]!.pilot.phone).toBe(leaving.phone);
  });

  it("follows the offering pilot's rank, fleet and name changes, a withdrawn offer, and an offer that arrived before its pilot", async () => {
    const start = freshDate();
    const firstOfficer = await h.register({ rank: 'FO', fleet: 'A350' });
    const foTrip = await h.addTrip(firstOfficer, { startDate: start, aircraft: 'A350' });
    const captain = await h.register({ rank: 'CP', fleet: 'A350' });
    const cpTrip = await h.addTrip(captain, { startDate: start, aircraft: 'A350' });
    const mover = await h.register({ rank: 'FO', fleet: 'A350' });
    const offer = await h.addTrip(mover, { startDate: addDays(start, 1), endDate: addDays(start, 2), aircraft: 'A350', isSwappable: true });
    expect(await h.matchIds(firstOfficer, foTrip.id)).toEqual([offer.id]);
    expect(await h.matchIds(captain, cpTrip.id)).toEqual([]);

    await h.publishAndWait(SUBJECTS.pilotUpdated, { pilot: { ...mover, rank: 'CP', lastName: 'Promoted' } }, 2);
    expect(await h.matchIds(firstOfficer, foTrip.id)).toEqual([]);
    const seen = (await h.matches(captain, cpTrip.id)).json() as SwapMatch[];
    expect(seen.map((match) => [match.trip.id, match.pilot.rank, match.pilot.lastName])).toEqual([[offer.id, 'CP', 'Promoted']]);

    // A B787 captain cannot fly an A350 trip, so the A350 captain's trip is no swap for them.
    await h.publishAndWait(SUBJECTS.pilotUpdated, { pilot: { ...mover, rank: 'CP', fleet: 'B787', lastName: 'Promoted' } }, 3);
    expect(await h.matchIds(captain, cpTrip.id)).toEqual([]);
    await h.publishAndWait(SUBJECTS.pilotUpdated, { pilot: { ...mover, rank: 'CP', fleet: 'SFF', lastName: 'Promoted' } }, 4);
    expect(await h.matchIds(captain, cpTrip.id)).toEqual([offer.id]);

    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...offer, isSwappable: false } }, 2);
    expect(await h.matchIds(captain, cpTrip.id)).toEqual([]);

    const late = makePilot({ rank: 'CP', fleet: 'A350' });
    const early = makeTrip(late, { startDate: addDays(start, 3), endDate: addDays(start, 3), aircraft: 'A350', isSwappable: true });
    await h.publishAndWait(SUBJECTS.tripOffered, { trip: early });
    expect(await h.matchIds(captain, cpTrip.id)).toEqual([]);
    await h.publishAndWait(SUBJECTS.pilotRegistered, { pilot: late });
    expect(await h.matchIds(captain, cpTrip.id)).toEqual([early.id]);
  });

  it('uses a window of 4 days either side of the trip start by default, edges included', async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start });
    const other = await h.register();
    const offers = new Map<number, string>();
    for (const offset of [-5, -4, 4, 5]) {
      offers.set(offset, (await h.addTrip(other, { startDate: addDays(start, offset), endDate: addDays(start, offset), isSwappable: true })).id);
    }
    expect(await h.matchIds(me, mine.id)).toEqual([offers.get(-4), offers.get(4)]);
  });

  it("uses the pilot's own searchDayRange over the setting, and 0 means the same start date", async () => {
    const start = freshDate();
    const twoDays = await h.register({ searchDayRange: 2 });
    const twoDaysTrip = await h.addTrip(twoDays, { startDate: start });
    const sameDay = await h.register({ searchDayRange: 0 });
    const sameDayTrip = await h.addTrip(sameDay, { startDate: start });
    const other = await h.register();
    const onTheDay = await h.addTrip(other, { startDate: start, endDate: addDays(start, 1), isSwappable: true });
    const twoLater = await h.addTrip(other, { startDate: addDays(start, 2), endDate: addDays(start, 2), isSwappable: true });
    await h.addTrip(other, { startDate: addDays(start, 3), endDate: addDays(start, 3), isSwappable: true });
    const dayBefore = await h.addTrip(other, { startDate: addDays(start, -1), endDate: addDays(start, -1), isSwappable: true });

    expect(await h.matchIds(twoDays, twoDaysTrip.id)).toEqual([dayBefore.id, onTheDay.id, twoLater.id]);
    expect(await h.matchIds(sameDay, sameDayTrip.id)).toEqual([onTheDay.id]);
  });

  it("uses the trip's own search range over the pilot's and the setting's", async () => {
    const start = freshDate();
    const me = await h.register({ searchDayRange: 10 });
    const mine = await h.addTrip(me, { startDate: start, searchStartDate: addDays(start, 1), searchEndDate: addDays(start, 2) });
    const other = await h.register();
    await h.addTrip(other, { startDate: start, endDate: start, isSwappable: true });
    const inside = await h.addTrip(other, { startDate: addDays(start, 2), endDate: addDays(start, 2), isSwappable: true });
    await h.addTrip(other, { startDate: addDays(start, 3), endDate: addDays(start, 3), isSwappable: true });
    expect(await h.matchIds(me, mine.id)).toEqual([inside.id]);
  });

  it('uses explicit query dates over every other window, and an empty one means not given', async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start, searchStartDate: start, searchEndDate: start });
    const other = await h.register();
    const early = await h.addTrip(other, { startDate: addDays(start, -7), endDate: addDays(start, -7), isSwappable: true });
    const onTheDay = await h.addTrip(other, { startDate: start, endDate: start, isSwappable: true });
    const late = await h.addTrip(other, { startDate: addDays(start, 10), endDate: addDays(start, 10), isSwappable: true });

    // Only the offer on the day could be swapped back into my trip (its window reaches mine): Mutual, first.
    expect(await h.matchIds(me, mine.id, `?startDate=${addDays(start, -7)}&endDate=${addDays(start, 10)}`)).toEqual([onTheDay.id, early.id, late.id]);
    expect(await h.matchIds(me, mine.id, `?startDate=${addDays(start, 1)}&endDate=${addDays(start, 10)}`)).toEqual([late.id]);
    expect(await h.matchIds(me, mine.id, '?startDate=&endDate=')).toEqual([onTheDay.id]);
  });

  it("marks offers with identical start and end dates 'Same Dates' and lists them first, then by start date", async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start, endDate: addDays(start, 3) });
    const other = await h.register();
    const third = await h.register();
    const later = await h.addTrip(other, { startDate: addDays(start, 2), endDate: addDays(start, 4), isSwappable: true });
    const same = await h.addTrip(third, { startDate: start, endDate: addDays(start, 3), isSwappable: true });
    const earlier = await h.addTrip(other, { startDate: addDays(start, -3), endDate: addDays(start, -1), isSwappable: true });
    const sameStart = await h.addTrip(other, { startDate: start, endDate: addDays(start, 1), isSwappable: true });

    const body = (await h.matches(me, mine.id)).json() as SwapMatch[];
    expect(body.map((match) => [match.trip.id, match.sameDates])).toEqual([
      [same.id, true],
      [earlier.id, false],
      [sameStart.id, false],
      [later.id, false],
    ]);
  });

  it("marks an offer Mutual when its owner could take my trip too, and lists Mutual offers first", async () => {
    const start = freshDate();
    const me = await h.register({ rank: 'FO', fleet: 'A350' });
    const mine = await h.addTrip(me, { startDate: start, endDate: addDays(start, 2) });
    // Mine, three days after the offers below: I would be on two trips on one day with the clashing one.
    await h.addTrip(me, { startDate: addDays(start, -3), endDate: addDays(start, -3), flightNoStart: 'VS009' });
    const fits = await h.register({ rank: 'FO', fleet: 'A350' });
    const mutual = await h.addTrip(fits, { startDate: addDays(start, 2), endDate: addDays(start, 3), isSwappable: true });
    // Its owner searches only after their trip: my trip is outside their window.
    const narrow = await h.register({ rank: 'FO', fleet: 'A350' });
    const outside = await h.addTrip(narrow, { startDate: addDays(start, 1), endDate: addDays(start, 1), isSwappable: true, searchStartDate: addDays(start, 1), searchEndDate: addDays(start, 4) });
    // Its owner flies on my trip's last day already.
    const busy = await h.register({ rank: 'FO', fleet: 'A350' });
    const ownerBusy = await h.addTrip(busy, { startDate: addDays(start, -1), endDate: addDays(start, -1), isSwappable: true });
    const busyElsewhere = await h.addTrip(busy, { startDate: addDays(start, 2), endDate: addDays(start, 4), flightNoStart: 'VS011' });
    // I fly on its day already.
    const clash = await h.register({ rank: 'FO', fleet: 'A350' });
    const askerBusy = await h.addTrip(clash, { startDate: addDays(start, -4), endDate: addDays(start, -3), isSwappable: true });

    const body = (await h.matches(me, mine.id)).json() as SwapMatch[];
    expect(body.map((match) => [match.trip.id, match.mutual])).toEqual([
      [mutual.id, true],
      [askerBusy.id, false],
      [ownerBusy.id, false],
      [outside.id, false],
    ]);

    // Once the clash is gone (the owner drops their other trip), the offer is Mutual and moves up.
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: busyElsewhere.id, pilotId: busy.id });
    expect(await h.matchIds(me, mine.id)).toEqual([ownerBusy.id, mutual.id, askerBusy.id, outside.id]);
  });

  it('marks offers starting within 48 hours Urgent (today to the date 48 hours on, by the controllable clock) and lists them after Mutual ones, before the rest', async () => {
    const start = freshDate();
    const clockWas = h.clock.now();
    // Noon UTC is the same date in London, summer or winter: 48 hours on is two days later.
    h.clock.set(`${addDays(start, -3)}T12:00:00Z`);
    try {
      const me = await h.register({ rank: 'CP', fleet: 'B787' });
      const mine = await h.addTrip(me, { startDate: start, endDate: start, aircraft: 'B787' });
      const offer = async (offset: number) => {
        const owner = await h.register({ rank: 'CP', fleet: 'B787' });
        return h.addTrip(owner, { startDate: addDays(start, offset), endDate: addDays(start, offset), aircraft: 'B787', isSwappable: true });
      };
      const today = await offer(-3);
      const lastUrgentDay = await offer(-1);
      const sameDay = await offer(0);
      const started = await offer(-4);
      const body = (await h.matches(me, mine.id)).json() as SwapMatch[];
      // All four are Mutual (each owner's window reaches my trip, nobody is double-booked).
      expect(body.map((match) => [match.trip.id, match.mutual, match.urgent])).toEqual([
        [today.id, true, true],
        [lastUrgentDay.id, true, true],
        [sameDay.id, true, false],
        [started.id, true, false],
      ]);
      // A day later the first offer has started, and the one on my trip's day is Urgent.
      h.clock.set(`${addDays(start, -2)}T12:00:00Z`);
      const later = (await h.matches(me, mine.id)).json() as SwapMatch[];
      expect(later.filter((match) => match.urgent).map((match) => match.trip.id)).toEqual([sameDay.id, lastUrgentDay.id]);
    } finally {
      h.clock.set(clockWas);
    }
  });

  it('answers a page with ?limit= in the same order, and the next page with its cursor, until there is none', async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start, endDate: addDays(start, 1) });
    const other = await h.register();
    for (const offset of [-4, -2, 0, 1, 3, 4]) {
      await h.addTrip(other, { startDate: addDays(start, offset), endDate: addDays(start, offset), isSwappable: true, flightNoStart: `VS1${offset + 10}` });
    }
    await h.addTrip(await h.register(), { startDate: start, endDate: addDays(start, 1), isSwappable: true });
    const whole = (await h.matches(me, mine.id)).json() as SwapMatch[];
    expect(whole).toHaveLength(7);

    const pages: SwapMatchPage[] = [];
    let cursor: string | null = null;
    do {
      const response = await h.matches(me, mine.id, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.statusCode).toBe(200);
      const page = SwapMatchPage.parse(response.json());
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages.map((page) => [page.matches.length, page.total])).toEqual([
      [3, 7],
      [3, 7],
      [1, 7],
    ]);
    expect(pages.flatMap((page) => page.matches)).toEqual(whole);

    // A page past the end, and a limit larger than the list.
    const all = SwapMatchPage.parse((await h.matches(me, mine.id, '?limit=200')).json());
    expect([all.matches, all.total, all.nextCursor]).toEqual([whole, 7, null]);
  });

  it.each([
    ['a limit of 0', '?limit=0', 'Limit must be a whole number from 1 to 200.'],
    ['a limit over 200', '?limit=201', 'Limit must be a whole number from 1 to 200.'],
    ['a limit that is not a number', '?limit=fifty', 'Limit must be a whole number from 1 to 200.'],
    ['a limit that is not whole', '?limit=1.5', 'Limit must be a whole number from 1 to 200.'],
    ['a cursor without a limit', '?cursor=abc', 'A cursor needs a limit.'],
    ['a cursor that is not one', '?limit=5&cursor=not-a-cursor', 'This list has changed or the link is not valid. Please search again.'],
  ])('answers 400 with a clear message for %s', async (_name, query, message) => {
    // Refused before any offer is looked at: the trip needs no date slot of its own.
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: TODAY });
    const response = await h.matches(owner, trip.id, query);
    expect(response.statusCode).toBe(400);
    expect((response.json() as { error: string }).error).toBe(message);
  });

  it("refuses a cursor from another trip's list, and another pilot's trip with a valid cursor is still not found", async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start });
    const second = await h.addTrip(me, { startDate: addDays(start, 8), flightNoStart: 'VS021' });
    const other = await h.register();
    await h.addTrip(other, { startDate: start, isSwappable: true });
    await h.addTrip(other, { startDate: addDays(start, 1), endDate: addDays(start, 1), isSwappable: true, flightNoStart: 'VS023' });
    const first = SwapMatchPage.parse((await h.matches(me, mine.id, '?limit=1')).json());
    expect(first.nextCursor).not.toBeNull();
    const cursor = encodeURIComponent(first.nextCursor!);
    const elsewhere = await h.matches(me, second.id, `?limit=1&cursor=${cursor}`);
    expect([elsewhere.statusCode, elsewhere.json()]).toEqual([400, { error: 'This list has changed or the link is not valid. Please search again.' }]);
    const stranger = await h.matches(other, mine.id, `?limit=1&cursor=${cursor}`);
    expect([stranger.statusCode, stranger.json()]).toEqual([404, { error: 'Trip not found' }]);
  });

  it('follows a swap_search_days change arriving from admin', async () => {
    const start = freshDate();
    const me = await h.register();
    const mine = await h.addTrip(me, { startDate: start });
    const other = await h.register();
    const sixDays = await h.addTrip(other, { startDate: addDays(start, 6), endDate: addDays(start, 6), isSwappable: true });
    expect(await h.matchIds(me, mine.id)).toEqual([]);
    try {
      await h.publishAndWait(SUBJECTS.settingsChanged, { key: 'swap_search_days', value: '7' });
      expect(await h.matchIds(me, mine.id)).toEqual([sixDays.id]);
      await h.publishAndWait(SUBJECTS.settingsChanged, { key: 'swap_search_days', value: '1' });
      expect(await h.matchIds(me, mine.id)).toEqual([]);
    } finally {
      await h.publishAndWait(SUBJECTS.settingsChanged, { key: 'swap_search_days', value: '4' });
    }
  });

  it('ignores settings other than swap_search_days and never stores them', async () => {
    await h.publishAndWait(SUBJECTS.settingsChanged, { key: 'testing_password', value: 'secret' });
    expect(await h.db('settings').where({ key: 'testing_password' }).first()).toBeUndefined();
  });

  it("answers 404 for another pilot's trip and for an unknown trip, and 401 without a session", async () => {
    const start = freshDate();
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: start });
    const stranger = await h.register();
    const other = await h.matches(stranger, trip.id);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Trip not found' });
    expect((await h.matches(owner, '0b7e9a52-4d5e-4f60-8a71-92b3c4d5e6f7')).statusCode).toBe(404);
    const anonymous = await h.service.app.inject({ method: 'GET', url: `/api/trips/${trip.id}/matches` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: 'Session expired' });
  });

  it('finds swaps for a trip added a moment ago, before trips has told swaps of it, rather than answer Trip not found', async () => {
    const start = freshDate();
    const me = await h.register({ rank: 'CP', fleet: 'A350' });
    const captain = await h.register({ rank: 'CP', fleet: 'A350' });
    const offer = await h.addTrip(captain, { startDate: start, isSwappable: true });
    const mine = makeTrip(me, { startDate: addDays(start, 1) });
    // Committed to trips' outbox, and not yet published: the pilot taps Find swaps at once.
    await h.publish(SUBJECTS.tripCreated, { trip: mine });
    expect(await h.matchIds(me, mine.id)).toEqual([offer.id]);
  });

  it('finds swaps for a pilot who registered a moment ago, before auth has told swaps of them, rather than answer an empty list', async () => {
    const start = freshDate();
    const captain = await h.register({ rank: 'CP', fleet: 'A350' });
    const offer = await h.addTrip(captain, { startDate: start, isSwappable: true });
    const me = makePilot({ rank: 'CP', fleet: 'A350' });
    const mine = await h.addTrip(me, { startDate: addDays(start, 1) });
    // Committed to auth's outbox, and not yet published.
    await h.publish(SUBJECTS.pilotRegistered, { pilot: me });
    expect(await h.matchIds(me, mine.id)).toEqual([offer.id]);
  });

  it('answers an unknown trip Trip not found without the whole wait, once trips and auth hold nothing on its way', async () => {
    // A wait far longer than the test may take: only knowing that nothing is coming ends it.
    const patient = await startHarness({ tripsCatchUpMs: 60_000 });
    try {
      const owner = await patient.register();
      const started = Date.now();
      const response = await patient.matches(owner, '5f0e6a3c-1d2b-4c5d-8e9f-0a1b2c3d4e5f');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Trip not found' });
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await patient.close();
    }
  });

  it('refuses a deleted trip like an unknown one', async () => {
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: freshDate() });
    await h.publishAndWait(SUBJECTS.tripDeleted, { tripId: trip.id, pilotId: owner.id });
    expect((await h.matches(owner, trip.id)).statusCode).toBe(404);
  });

  it.each([
    ['a date that is not a date', '?startDate=2026-02-30'],
    ['a date in the wrong format', '?startDate=01/12/2026'],
    ['an unknown field', '?foo=bar'],
    ['a repeated field', '?startDate=2026-12-01&startDate=2026-12-02'],
    ['a huge value', `?startDate=${'9'.repeat(5000)}`],
  ])('answers 400 with a message for %s', async (_name, query) => {
    // Refused before any offer is looked at: the trip needs no date slot of its own.
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: TODAY });
    const response = await h.matches(owner, trip.id, query);
    expect(response.statusCode).toBe(400);
    expect(typeof (response.json() as { error: unknown }).error).toBe('string');
  });

  it('answers 400 for an id that is not an id, an end before the start, and dates far from the trip', async () => {
    const start = freshDate();
    const owner = await h.register();
    const trip = await h.addTrip(owner, { startDate: start });
    expect((await h.matches(owner, 'not-an-id')).json()).toEqual({ error: 'Not a valid id', fields: { id: 'Not a valid id' } });
    const backwards = await h.matches(owner, trip.id, `?startDate=${addDays(start, 2)}&endDate=${addDays(start, 1)}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({ error: 'End date cannot be before start date' });
    const far = await h.matches(owner, trip.id, `?startDate=${addDays(start, -31)}`);
    expect(far.statusCode).toBe(400);
    expect(far.json()).toEqual({ error: "The search dates must be within 30 days of the trip's start date." });
  });

  it('answers a trip at the end of the calendar, and refuses query dates years away with a clear 400', async () => {
    const owner = await h.register();
    // Stored before dates were bounded: its window reaches past 9999-12-31, which must stop there.
    const edge = await h.addTrip(owner, { startDate: '9999-12-30', endDate: '9999-12-31' });
    const response = await h.matches(owner, edge.id);
    expect([response.statusCode, response.json()]).toEqual([200, []]);
    const far = await h.matches(owner, edge.id, '?startDate=9999-12-28&endDate=9999-12-31');
    expect([far.statusCode, far.json()]).toEqual([400, { error: 'Dates must be between 11/01/2025 and 11/01/2028. Please check the year.' }]);
  });

  it('keeps GET /api/available-swaps disabled with a clear 404', async () => {
    const response = await h.service.app.inject({ method: 'GET', url: '/api/available-swaps' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'The available swaps list is disabled. Use Find swaps on one of your trips.' });
  });
});
