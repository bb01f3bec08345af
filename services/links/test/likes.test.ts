import type { CrewLink, CrewLinkLike } from '@crewswap/proto';
import { linkBody, pilotCookie, registerPilot, startTestService, type TestService } from './helpers';

const CONCURRENT = 50;

describe('likes: one like per pilot per link, safe under concurrent clicks', () => {
  let service: TestService;
  let pilots: string[];
  beforeAll(async () => {
    service = await startTestService();
    pilots = await Promise.all(Array.from({ length: CONCURRENT }, async () => (await registerPilot(service)).id));
  });
  afterAll(async () => {
    await service.stop();
  });

  const addLink = async (): Promise<CrewLink> =>
    (await service.app.inject({ method: 'POST', url: '/api/crew-links', cookies: pilotCookie(pilots[0]!), payload: linkBody() })).json<CrewLink>();
  const like = (method: 'POST' | 'DELETE', linkId: string, pilotId: string) =>
    service.app.inject({ method, url: `/api/crew-links/${linkId}/like`, cookies: pilotCookie(pilotId) });
  const seenBy = async (linkId: string, pilotId: string) =>
    (await service.app.inject({ method: 'GET', url: `/api/crew-links/${linkId}`, cookies: pilotCookie(pilotId) })).json<CrewLink>();

  it('a like counts once and shows as liked for that pilot only; unlike takes it back', async () => {
    const link = await addLink();
    const [amy, raj] = pilots as [string, string];
    expect((await like('POST', link.id, amy)).json()).toEqual({ likesCount: 1, isLikedByCurrentUser: true });
    expect((await like('POST', link.id, amy)).json()).toEqual({ likesCount: 1, isLikedByCurrentUser: true });
    expect(await seenBy(link.id, amy)).toMatchObject({ likesCount: 1, isLikedByCurrentUser: true });
    expect(await seenBy(link.id, raj)).toMatchObject({ likesCount: 1, isLikedByCurrentUser: false });
    expect((await like('DELETE', link.id, amy)).json()).toEqual({ likesCount: 0, isLikedByCurrentUser: false });
    expect((await like('DELETE', link.id, amy)).json()).toEqual({ likesCount: 0, isLikedByCurrentUser: false });
  });

  it(`${CONCURRENT} concurrent likes by one pilot count as one`, async () => {
    const link = await addLink();
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, () => like('POST', link.id, pilots[1]!)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(CONCURRENT).fill(200));
    expect(await seenBy(link.id, pilots[1]!)).toMatchObject({ likesCount: 1, isLikedByCurrentUser: true });
  });

  it(`${CONCURRENT} pilots liking at once make ${CONCURRENT} likes; all unliking at once make 0`, async () => {
    const link = await addLink();
    const liked = await Promise.all(pilots.map((pilotId) => like('POST', link.id, pilotId)));
    expect(liked.map((response) => response.statusCode)).toEqual(Array(CONCURRENT).fill(200));
    expect(liked.every((response) => response.json<CrewLinkLike>().isLikedByCurrentUser)).toBe(true);
    expect(Math.max(...liked.map((response) => response.json<CrewLinkLike>().likesCount))).toBe(CONCURRENT);
    expect(await seenBy(link.id, pilots[0]!)).toMatchObject({ likesCount: CONCURRENT });

    const unliked = await Promise.all(pilots.map((pilotId) => like('DELETE', link.id, pilotId)));
    expect(unliked.map((response) => response.statusCode)).toEqual(Array(CONCURRENT).fill(200));
    expect(await seenBy(link.id, pilots[0]!)).toMatchObject({ likesCount: 0, isLikedByCurrentUser: false });
  });

  it(`${CONCURRENT} mixed clicks: every pilot likes twice and half unlike once, in any order`, async () => {
    const link = await addLink();
    const leavers = new Set(pilots.slice(0, CONCURRENT / 2));
    // Likes first, then the unlikes race the second likes: the leavers end either way, the rest stay liked.
    await Promise.all(pilots.map((pilotId) => like('POST', link.id, pilotId)));
    await Promise.all([...pilots.map((pilotId) => like('POST', link.id, pilotId)), ...[...leavers].map((pilotId) => like('DELETE', link.id, pilotId))]);
    const rows: { pilot_id: string }[] = await service.runtime.db('crew_link_likes').where({ link_id: link.id });
    const likers = new Set(rows.map((row) => row.pilot_id));
    for (const pilotId of pilots) if (!leavers.has(pilotId)) expect(likers.has(pilotId)).toBe(true);
    expect(rows).toHaveLength(likers.size);
    expect((await seenBy(link.id, pilots.at(-1)!)).likesCount).toBe(likers.size);
  });

  it('liking a link that does not exist (or was just deleted) is 404; its likes go with it', async () => {
    const link = await addLink();
    await like('POST', link.id, pilots[2]!);
    expect((await service.app.inject({ method: 'DELETE', url: `/api/crew-links/${link.id}`, cookies: pilotCookie(pilots[3]!) })).statusCode).toBe(204);
    const late = await like('POST', link.id, pilots[2]!);
    expect(late.statusCode).toBe(404);
    expect(late.json()).toEqual({ error: 'Crew link not found' });
    expect((await like('DELETE', link.id, pilots[2]!)).statusCode).toBe(404);
    expect(await service.runtime.db('crew_link_likes').where({ link_id: link.id })).toEqual([]);
  });

  it('the list carries each link’s count and whether the current pilot liked it', async () => {
    const link = await addLink();
    await like('POST', link.id, pilots[4]!);
    await like('POST', link.id, pilots[5]!);
    const listed = (await service.app.inject({ method: 'GET', url: '/api/crew-links', cookies: pilotCookie(pilots[4]!) })).json<CrewLink[]>();
    expect(listed.find((item) => item.id === link.id)).toMatchObject({ likesCount: 2, isLikedByCurrentUser: true });
  });
});
