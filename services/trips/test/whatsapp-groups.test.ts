import { SUBJECTS, WHATSAPP_MESSAGES as W, type WhatsappGroupEvent, type WhatsappGroupResponse } from '@crewswap/proto';
import { crewPilot, crewTestService, freshFlight, type CrewPilot } from './crew-helpers';

const LINK = 'https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv';

describe('WhatsApp group of a trip: none, pending, active, claimable, expired', () => {
  const service = crewTestService();

  /** Three crew on one fresh flight (the third with Master Roster off): each with their own trip id. */
  async function crew() {
    const flight = freshFlight();
    const fields = { ...flight, route: 'JFK', startDate: '2026-11-10', endDate: '2026-11-12' };
    const make = async (firstName: string, usualReq = true) => {
      const pilot = await crewPilot(service(), { firstName, lastName: 'Crew', usualReq });
      const trip = await pilot.addTrip(fields);
      const url = `/api/trips/${trip.id}/whatsapp-group`;
      return { ...pilot, trip, url };
    };
    return { flight, amy: await make('Amy'), ben: await make('Ben'), cat: await make('Cat', false) };
  }

  const groupOf = async (member: CrewPilot & { url: string }) => {
    const answer = await member.get(member.url);
    expect(answer.status).toBe(200);
    return answer.body as WhatsappGroupResponse;
  };

  async function published(subject: string, groupId: string) {
    const rows: { envelope: { data: WhatsappGroupEvent } }[] = await service().runtime.db('outbox').where({ subject });
    return rows.map((row) => row.envelope.data).filter((data) => data.groupId === groupId);
  }

  async function pushes(groupId: string) {
    const rows: { envelope: { data: { pilotId: string; kind: string; title: string; dedupeKey: string } } }[] = await service().runtime.db('outbox').where({ subject: SUBJECTS.sendPush });
    return rows.map((row) => row.envelope.data).filter((data) => data.dedupeKey.includes(groupId));
  }

  it('none: no group yet, with the name a new group gets', async () => {
    const { flight, amy } = await crew();
    expect(await groupOf(amy)).toEqual({
      group: null,
      status: 'none',
      isExpired: false,
      groupName: `${flight.flightNoStart}/${flight.flightNoEnd} JFK 10 Nov 2026`,
      message: null,
    });
  });

  it('any crew member may create it (pending); the server decides the creator; every other crew member is told', async () => {
    const { amy, ben, cat } = await crew();
    const created = await amy.request('POST', amy.url, { createdByPilotId: ben.pilot.id, creatorName: 'Someone Else', justCreatedByOther: true });
    expect(created.status).toBe(201);
    const body = created.body as WhatsappGroupResponse;
    expect(body).toMatchObject({
      status: 'pending',
      isExpired: false,
      message: null,
      group: { status: 'pending', createdByPilotId: amy.pilot.id, creatorName: 'Amy Crew', inviteLink: null, isCreator: true, justCreatedByOther: false, isExpired: false },
    });
    const groupId = body.group!.id;

    // The whole crew shares it, Master Roster on or off.
    for (const member of [ben, cat]) {
      expect(await groupOf(member)).toMatchObject({ status: 'pending', group: { id: groupId, isCreator: false, creatorName: 'Amy Crew' } });
    }
    const [event] = await published(SUBJECTS.whatsappGroupCreated, groupId);
    expect(event).toMatchObject({ actorPilotId: amy.pilot.id, createdByPilotId: amy.pilot.id, groupName: body.groupName });
    expect([...event!.crewPilotIds].sort()).toEqual([ben.pilot.id, cat.pilot.id].sort());
    const pushed = await pushes(groupId);
    expect(pushed.map((push) => push.pilotId).sort()).toEqual([ben.pilot.id, cat.pilot.id].sort());
    expect(pushed.every((push) => push.kind === 'whatsapp_group' && push.title === 'WhatsApp group created')).toBe(true);
  });

  it('a second create answers the group already made by another crew member (justCreatedByOther), and publishes nothing', async () => {
    const { amy, ben } = await crew();
    const first = (await amy.request('POST', amy.url)).body as WhatsappGroupResponse;
    const second = await ben.request('POST', ben.url, {});
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'pending', group: { id: first.group!.id, justCreatedByOther: true, isCreator: false } });
    const again = await amy.request('POST', amy.url);
    expect(again).toMatchObject({ status: 200, body: { group: { justCreatedByOther: false, isCreator: true } } });
    expect(await published(SUBJECTS.whatsappGroupCreated, first.group!.id)).toHaveLength(1);
  });

  it('two crew members creating at once make one group', async () => {
    const { amy, ben } = await crew();
    const [a, b] = await Promise.all([amy.request('POST', amy.url), ben.request('POST', ben.url)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect((a.body as WhatsappGroupResponse).group!.id).toBe((b.body as WhatsappGroupResponse).group!.id);
  });

  it('only the creator may set the invite link or delete (403 for other crew)', async () => {
    const { amy, ben } = await crew();
    await amy.request('POST', amy.url);
    expect(await ben.request('PATCH', ben.url, { inviteLink: LINK })).toEqual({ status: 403, body: { error: W.creatorOnly } });
    expect(await ben.request('DELETE', ben.url)).toEqual({ status: 403, body: { error: W.creatorOnly } });
    expect((await groupOf(ben)).status).toBe('pending');
  });

  it.each([
    ['', W.linkBlank],
    ['   ', W.linkBlank],
    [undefined, W.linkBlank],
    ['https://example.com/AbCdEfGhIjKlMnOpQrStUv', W.linkInvalid],
    ['http://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv', W.linkInvalid],
    ['javascript:alert(1)', W.linkInvalid],
    ['https://chat.whatsapp.com/', W.linkInvalid],
    ['https://chat.whatsapp.com.evil.test/AbCdEfGhIjKlMnOpQrStUv', W.linkInvalid],
  ])('the invite link %j is refused: %s', async (inviteLink, error) => {
    const { amy } = await crew();
    await amy.request('POST', amy.url);
    const answer = await amy.request('PATCH', amy.url, inviteLink === undefined ? {} : { inviteLink });
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toBe(error);
  });

  it('active: the creator pastes the invite link; the crew sees it and is told once', async () => {
    const { amy, ben } = await crew();
    await amy.request('POST', amy.url);
    const answer = await amy.request('PATCH', amy.url, { inviteLink: `  ${LINK}  ` });
    expect(answer).toMatchObject({ status: 200, body: { status: 'active', group: { inviteLink: LINK, status: 'active' } } });
    const seen = await groupOf(ben);
    expect(seen).toMatchObject({ status: 'active', group: { inviteLink: LINK, isCreator: false } });
    const groupId = seen.group!.id;
    // Saving the same link again changes nothing and tells nobody again.
    await amy.request('PATCH', amy.url, { inviteLink: LINK });
    expect(await published(SUBJECTS.whatsappGroupActivated, groupId)).toHaveLength(1);
    expect((await pushes(groupId)).filter((push) => push.title === 'WhatsApp group ready').map((push) => push.pilotId)).toContain(ben.pilot.id);
  });

  it('claimable: once the creator is no longer on the trip another crew member may claim it; before that, claiming is refused', async () => {
    const { amy, ben } = await crew();
    await amy.request('POST', amy.url);
    await amy.request('PATCH', amy.url, { inviteLink: LINK });
    expect(await ben.request('POST', `${ben.url}/claim`)).toEqual({ status: 409, body: { error: W.notClaimable } });

    await service().repositories.trips.deleteWhere((query) => query.where({ id: amy.trip.id }));
    expect(await groupOf(ben)).toMatchObject({ status: 'claimable', group: { status: 'claimable', createdByPilotId: amy.pilot.id } });
    // Still the creator's to change until claimed.
    expect((await ben.request('PATCH', ben.url, { inviteLink: LINK })).status).toBe(403);

    const claimed = await ben.request('POST', `${ben.url}/claim`);
    expect(claimed).toMatchObject({ status: 200, body: { status: 'active', group: { createdByPilotId: ben.pilot.id, creatorName: 'Ben Crew', isCreator: true, inviteLink: LINK } } });
    const groupId = (claimed.body as WhatsappGroupResponse).group!.id;
    expect(await published(SUBJECTS.whatsappGroupClaimed, groupId)).toEqual([expect.objectContaining({ actorPilotId: ben.pilot.id, createdByPilotId: ben.pilot.id })]);
    expect((await ben.request('PATCH', ben.url, { inviteLink: LINK.replace('Ab', 'Zz') })).status).toBe(200);
  });

  it('the creator may cancel a pending group or delete an active one; another crew member may then create a new one', async () => {
    const { amy, ben } = await crew();
    const pending = (await amy.request('POST', amy.url)).body as WhatsappGroupResponse;
    expect((await amy.request('DELETE', amy.url)).status).toBe(204);
    expect((await groupOf(ben)).status).toBe('none');
    expect(await published(SUBJECTS.whatsappGroupDeleted, pending.group!.id)).toHaveLength(1);

    const again = (await ben.request('POST', ben.url)).body as WhatsappGroupResponse;
    expect(again.group).toMatchObject({ createdByPilotId: ben.pilot.id });
    await ben.request('PATCH', ben.url, { inviteLink: LINK });
    expect((await ben.request('DELETE', ben.url)).status).toBe(204);
    expect(await groupOf(amy)).toMatchObject({ status: 'none', group: null });
    expect(await amy.request('DELETE', amy.url)).toEqual({ status: 404, body: { error: W.noGroup } });
  });

  it('expired: once the trip has ended a group cannot be created and the link may no longer be active', async () => {
    const { amy, ben } = await crew();
    await amy.request('POST', amy.url);
    await amy.request('PATCH', amy.url, { inviteLink: LINK });
    // The trip ends on 12 November; on the 13th (London) it has ended.
    service().clock.set('2026-11-13T00:30:00Z');
    expect(await groupOf(ben)).toMatchObject({ status: 'expired', isExpired: true, message: W.endedLink, group: { status: 'expired', isExpired: true, inviteLink: LINK } });
    expect(await amy.request('PATCH', amy.url, { inviteLink: LINK })).toEqual({ status: 400, body: { error: W.endedLink } });

    const other = await crew();
    service().clock.set('2026-11-13T00:30:00Z');
    expect(await groupOf(other.amy)).toMatchObject({ status: 'expired', isExpired: true, group: null, message: W.endedCreate });
    expect(await other.amy.request('POST', other.amy.url)).toEqual({ status: 400, body: { error: W.endedCreate } });
    // On its last day it has not ended yet.
    service().clock.set('2026-11-12T23:30:00Z');
    expect((await groupOf(other.amy)).status).toBe('none');
  });

  it("answers 404 for another pilot's trip, 400 for a standby duty, 401 without a session", async () => {
    const { amy } = await crew();
    const stranger = await crewPilot(service());
    expect((await stranger.get(amy.url)).status).toBe(404);
    expect((await stranger.request('POST', amy.url)).status).toBe(404);
    const standby = await stranger.addTrip({ flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', aircraft: null, isStandby: true, startDate: '2026-11-20', endDate: '2026-11-20' });
    expect(await stranger.get(`/api/trips/${standby.id}/whatsapp-group`)).toEqual({ status: 400, body: { error: W.standby } });
    expect((await service().app.inject({ method: 'GET', url: amy.url })).statusCode).toBe(401);
    expect((await amy.request('POST', amy.url, { notInTheSpec: true })).status).toBe(400);
  });

  it('active groups are counted in the stats', async () => {
    const { amy } = await crew();
    const before = ((await amy.get('/api/stats')).body as { community: { activeWhatsappGroups: number } }).community.activeWhatsappGroups;
    await amy.request('POST', amy.url);
    await amy.request('PATCH', amy.url, { inviteLink: LINK });
    expect(((await amy.get('/api/stats')).body as { community: { activeWhatsappGroups: number } }).community.activeWhatsappGroups).toBe(before + 1);
  });
});
