import { SUBJECTS, type CrewLink } from '@crewswap/proto';
import { eventually } from '@crewswap/kit-testing';
import { linkBody, pilotCookie, registerPilot, startTestService, type TestService } from './helpers';

describe('crew links: add, edit, delete, list and the helper calls', () => {
  let service: TestService;
  let cookies: Record<string, string>;
  let pilotId: string;
  beforeAll(async () => {
    service = await startTestService();
    const pilot = await registerPilot(service, { firstName: 'Amy', lastName: 'Stone' });
    pilotId = pilot.id;
    cookies = pilotCookie(pilot.id);
  });
  afterAll(async () => {
    await service.stop();
  });

  const add = async (overrides: Record<string, unknown> = {}, as = cookies) => {
    const response = await service.app.inject({ method: 'POST', url: '/api/crew-links', cookies: as, payload: linkBody(overrides) });
    expect(response.statusCode).toBe(201);
    return response.json<CrewLink>();
  };
  const list = async (query = '') => {
    const response = await service.app.inject({ method: 'GET', url: `/api/crew-links${query}`, cookies });
    expect(response.statusCode).toBe(200);
    return response.json<CrewLink[]>();
  };
  const post = (payload: Record<string, unknown>) => service.app.inject({ method: 'POST', url: '/api/crew-links', cookies, payload });

  describe('must be logged in to add, like or edit', () => {
    it.each([
      ['GET', '/api/crew-links'],
      ['POST', '/api/crew-links'],
      ['GET', '/api/crew-links/similar?title=Jo'],
      ['GET', '/api/crew-links/suggestions?q=Jo'],
      ['GET', '/api/crew-links/destinations'],
      ['GET', '/api/crew-links/airport-check?code=JFK'],
      ['GET', '/api/crew-links/00000000-0000-4000-8000-000000000000'],
      ['PUT', '/api/crew-links/00000000-0000-4000-8000-000000000000'],
      ['DELETE', '/api/crew-links/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/crew-links/00000000-0000-4000-8000-000000000000/like'],
      ['DELETE', '/api/crew-links/00000000-0000-4000-8000-000000000000/like'],
    ] as const)('%s %s without a session is 401 and changes nothing', async (method, url) => {
      const before = await service.runtime.db('crew_links').count<{ count: number }[]>('* as count');
      const response = await service.app.inject({ method, url, payload: method === 'POST' || method === 'PUT' ? linkBody() : undefined });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Session expired' });
      expect(await service.runtime.db('crew_links').count<{ count: number }[]>('* as count')).toEqual(before);
    });
  });

  it('adds a link with every field of the spec; the server sets lastEditedBy and ignores the body’s', async () => {
    const created = await add({ lastEditedBy: 'someone else' });
    expect(created).toEqual({
      id: expect.any(String),
      title: 'Joe’s Diner',
      category: 'restaurant',
      description: 'Crew discount on breakfast.',
      discountDetails: '15% with staff ID',
      destinations: 'JFK',
      website: 'https://joes.example.com',
      locationName: 'Joe’s Diner, Queens',
      locationCoordinates: '40.6413,-73.7781',
      contactInfo: '+1 555 0100',
      isActive: true,
      likesCount: 0,
      isLikedByCurrentUser: false,
      lastEditedAt: '2026-11-01T12:00:00.000Z',
      lastEditedBy: pilotId,
      lastEditedByName: 'Amy Stone',
    });
    const fetched = await service.app.inject({ method: 'GET', url: `/api/crew-links/${created.id}`, cookies });
    expect(fetched.json()).toEqual(created);
  });

  it('everyone can add and update: another pilot edits a link, and becomes its last editor', async () => {
    const link = await add({ title: 'Beach bar', category: 'bar', destinations: 'bgi' });
    const other = await registerPilot(service, { firstName: 'Raj', lastName: 'Patel' });
    service.clock.advance(60_000);
    const response = await service.app.inject({
      method: 'PUT',
      url: `/api/crew-links/${link.id}`,
      cookies: pilotCookie(other.id),
      payload: linkBody({ title: 'Beach bar (closed Mondays)', category: 'bar', destinations: 'BGI', isActive: false, lastEditedBy: pilotId }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: link.id,
      title: 'Beach bar (closed Mondays)',
      isActive: false,
      lastEditedBy: other.id,
      lastEditedByName: 'Raj Patel',
      lastEditedAt: '2026-11-01T12:01:00.000Z',
    });
  });

  it('everyone can delete a link; deleting it again is 404', async () => {
    const link = await add({ title: 'Gone soon' });
    const other = await registerPilot(service);
    const first = await service.app.inject({ method: 'DELETE', url: `/api/crew-links/${link.id}`, cookies: pilotCookie(other.id) });
    expect(first.statusCode).toBe(204);
    const again = await service.app.inject({ method: 'DELETE', url: `/api/crew-links/${link.id}`, cookies });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Crew link not found' });
    const edit = await service.app.inject({ method: 'PUT', url: `/api/crew-links/${link.id}`, cookies, payload: linkBody() });
    expect(edit.statusCode).toBe(404);
  });

  it("shows 'Pilot {id}' when the editor has no name: lastEditedByName is null for a pilot the directory never heard of, or who was deleted", async () => {
    const stranger = '7b0c1e9a-1111-4a2b-9c3d-123456789abc';
    const link = await add({ title: 'Stranger’s tip' }, pilotCookie(stranger));
    expect(link).toMatchObject({ lastEditedBy: stranger, lastEditedByName: null });

    const leaving = await registerPilot(service, { firstName: 'Lee', lastName: 'Ward' });
    const theirs = await add({ title: 'Lee’s tip' }, pilotCookie(leaving.id));
    expect(theirs.lastEditedByName).toBe('Lee Ward');
    await service.runtime.db.transaction((trx) =>
      service.runtime.outbox.write(trx, SUBJECTS.pilotDeleted, { pilotId: leaving.id, employeeId: leaving.employeeId }),
    );
    await eventually(async () => (await service.repositories.pilots.findName(leaving.id)) === undefined);
    const after = await service.app.inject({ method: 'GET', url: `/api/crew-links/${theirs.id}`, cookies });
    expect(after.json()).toMatchObject({ lastEditedBy: leaving.id, lastEditedByName: null });
  });

  it('text is stored as given (markup included) and comes back unchanged for the app to escape', async () => {
    const title = '<script>alert("x")</script> & <b>bold</b>';
    const link = await add({ title, description: '  two  spaces\nand a new line  ' });
    expect(link.title).toBe(title);
    expect(link.description).toBe('  two  spaces\nand a new line  ');
  });

  describe('validation: every message, nothing stored', () => {
    const cases: [string, Record<string, unknown>, number, Record<string, unknown>][] = [
      ['title required (missing)', { title: undefined }, 400, { error: 'Title is required', fields: { title: 'Title is required' } }],
      ['title required (blank)', { title: '   ' }, 400, { error: 'Title is required' }],
      ['category required', { category: undefined }, 400, { error: 'Category is required', fields: { category: 'Category is required' } }],
      ['category required (empty)', { category: '' }, 400, { error: 'Category is required' }],
      ['category from the list (lost_property has an icon only)', { category: 'lost_property' }, 400, { error: 'Please choose one of the listed categories' }],
      ['description required (missing)', { description: undefined }, 400, { error: 'Description is required' }],
      ['description required (blank)', { description: '' }, 400, { error: 'Description is required', fields: { description: 'Description is required' } }],
      ['airport codes must be exactly 3 letters', { destinations: 'JFK, LA' }, 400, { error: 'Airport codes must be exactly 3 letters', fields: { destinations: 'Airport codes must be exactly 3 letters' } }],
      ['airport codes are letters', { destinations: 'JF1' }, 400, { error: 'Airport codes must be exactly 3 letters' }],
      ['ALL or codes, not both', { destinations: 'ALL, JFK' }, 400, { error: 'Destinations are either ALL or airport codes, not both' }],
      [
        'one invalid code offers adding it to the IATA list (Unknown Airport Code)',
        { destinations: 'JFK XQZ' },
        400,
        { error: 'XQZ is not in our IATA airport list. Add it if it is a real airport.', title: 'Unknown Airport Code', unknownCode: 'XQZ' },
      ],
      [
        "several invalid codes show 'Invalid Destination'",
        { destinations: 'XQZ,JFK,XQJ' },
        400,
        { error: 'Invalid Destination: XQZ, XQJ are not valid IATA airport codes', title: 'Invalid Destination', unknownCodes: ['XQZ', 'XQJ'] },
      ],
      ['website is a URL', { website: 'joes diner' }, 400, { error: 'Website must be a web address starting with http:// or https://' }],
      ['website is a web address, never a script', { website: 'javascript:alert(1)' }, 400, { error: 'Website must be a web address starting with http:// or https://' }],
      ['coordinates in range', { locationCoordinates: '95.1,-73.7' }, 400, { error: 'Coordinates must be latitude,longitude (latitude -90 to 90, longitude -180 to 180)' }],
      ['a 200 KB description is a 400, not a 5xx', { description: 'x'.repeat(200 * 1024) }, 400, { error: 'Description cannot exceed 5000 characters' }],
      ['title bounded', { title: 'x'.repeat(201) }, 400, { error: 'Title cannot exceed 200 characters' }],
      ['discount details bounded', { discountDetails: 'x'.repeat(2001) }, 400, { error: 'Discount details cannot exceed 2000 characters' }],
      ['contact info bounded', { contactInfo: 'x'.repeat(501) }, 400, { error: 'Contact info cannot exceed 500 characters' }],
      ['location name bounded', { locationName: 'x'.repeat(201) }, 400, { error: 'Location name cannot exceed 200 characters' }],
      ['destinations bounded', { destinations: 'JFK '.repeat(200) }, 400, { error: 'Destinations cannot exceed 500 characters' }],
      ['isActive is a boolean', { isActive: 'yes' }, 400, { error: 'isActive must be true or false' }],
      ['unknown fields are refused', { colour: 'red' }, 400, { error: 'Unknown field(s): colour' }],
      ['NUL characters are refused', { title: 'a\u0000b' }, 400, { error: 'Text cannot contain NUL characters.' }],
    ];
    it.each(cases)('%s', async (_name, overrides, status, body) => {
      const before = await service.runtime.db('crew_links').count<{ count: number }[]>('* as count');
      const response = await post(linkBody(overrides));
      expect(response.statusCode).toBe(status);
      expect(response.json()).toMatchObject(body);
      expect(await service.runtime.db('crew_links').count<{ count: number }[]>('* as count')).toEqual(before);
    });

    it('the same rules hold for an edit', async () => {
      const link = await add({ title: 'Edit me' });
      const response = await service.app.inject({ method: 'PUT', url: `/api/crew-links/${link.id}`, cookies, payload: linkBody({ title: '', destinations: 'XQZ' }) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'Title is required' });
      const unknown = await service.app.inject({ method: 'PUT', url: `/api/crew-links/${link.id}`, cookies, payload: linkBody({ destinations: 'XQZ' }) });
      expect(unknown.json()).toMatchObject({ title: 'Unknown Airport Code', unknownCode: 'XQZ' });
      const after = await service.app.inject({ method: 'GET', url: `/api/crew-links/${link.id}`, cookies });
      expect(after.json()).toMatchObject({ title: 'Edit me', destinations: 'JFK' });
    });

    it("a body over the service's limit is 413 with a JSON error", async () => {
      const response = await post(linkBody({ description: 'x'.repeat(2 * 1024 * 1024) }));
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ error: 'Request body too large' });
    });

    it('a bad id is 400, never a 5xx', async () => {
      const response = await service.app.inject({ method: 'GET', url: '/api/crew-links/not-an-id', cookies });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'Not a valid id' });
    });
  });

  it('destinations: codes split by commas or spaces are uppercased and stored once each; empty means ALL; blank optional fields are null', async () => {
    expect((await add({ destinations: 'jfk,lax  sfo, jfk' })).destinations).toBe('JFK, LAX, SFO');
    expect((await add({ destinations: '' })).destinations).toBe('ALL');
    expect((await add({ destinations: 'all' })).destinations).toBe('ALL');
    expect(await add({ destinations: null, website: '', locationCoordinates: ' ', discountDetails: null })).toMatchObject({
      destinations: 'ALL',
      website: null,
      locationCoordinates: null,
      discountDetails: null,
    });
  });

  it('a code a pilot just added to the IATA list is accepted', async () => {
    const refused = await post(linkBody({ destinations: 'XJX' }));
    expect(refused.json()).toMatchObject({ title: 'Unknown Airport Code', unknownCode: 'XJX' });
    service.knownCodes.add('XJX');
    expect((await add({ destinations: 'XJX' })).destinations).toBe('XJX');
  });

  it("'Error validating airport code' when trips cannot answer; a link for ALL needs no check", async () => {
    service.setTripsAnswering(false);
    try {
      const response = await post(linkBody({ destinations: 'JFK' }));
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'Error validating airport code' });
      const check = await service.app.inject({ method: 'GET', url: '/api/crew-links/airport-check?code=JFK', cookies });
      expect(check.statusCode).toBe(503);
      expect(check.json()).toEqual({ error: 'Error validating airport code' });
      expect((await add({ title: 'Everywhere', destinations: 'ALL' })).destinations).toBe('ALL');
    } finally {
      service.setTripsAnswering(true);
    }
  });

  describe('filters, search, suggestions and similar titles', () => {
    let seaHotel: CrewLink;
    let laxCar: CrewLink;
    let everywhere: CrewLink;
    let delMedical: CrewLink;
    beforeAll(async () => {
      seaHotel = await add({ title: 'Waterfront Hotel', category: 'hotel', destinations: 'SEA', locationName: 'Pier 66' });
      laxCar = await add({ title: 'Cheap car hire', category: 'car_hire', destinations: 'LAX SFO', description: 'Ask for the 100% crew rate' });
      everywhere = await add({ title: 'Discount portal', category: 'discount_sites', destinations: 'ALL' });
      delMedical = await add({ title: 'Travel clinic', category: 'medical', destinations: 'DEL' });
    });

    it("destination filter: a trip's airports find their links and the links for ALL, nothing else", async () => {
      const seaLax = (await list('?destination=SEA,LAX')).map((link) => link.id);
      expect(seaLax).toEqual(expect.arrayContaining([seaHotel.id, laxCar.id, everywhere.id]));
      expect(seaLax).not.toContain(delMedical.id);
      const links = await list('?destination=sea');
      expect(links.every((link) => link.destinations === 'ALL' || link.destinations.split(', ').includes('SEA'))).toBe(true);
      expect(links.map((link) => link.id)).toContain(seaHotel.id);
      expect(links.map((link) => link.id)).not.toContain(laxCar.id);
      const sfo = (await list('?destination=SFO')).map((link) => link.id);
      expect(sfo).toContain(laxCar.id);
      expect(sfo).not.toContain(seaHotel.id);
    });

    it('a bad destination filter is 400 with the airport code message', async () => {
      const response = await service.app.inject({ method: 'GET', url: '/api/crew-links?destination=SEAT', cookies });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'Airport codes must be exactly 3 letters' });
    });

    it('category filter and search (a typed % is just a character)', async () => {
      expect((await list('?category=hotel')).map((link) => link.id)).toEqual([seaHotel.id]);
      expect((await list('?search=PIER')).map((link) => link.id)).toEqual([seaHotel.id]);
      expect((await list('?search=100%25')).map((link) => link.id)).toEqual([laxCar.id]);
      expect((await list('?search=car&destination=DEL')).map((link) => link.id)).toEqual([]);
      const bad = await service.app.inject({ method: 'GET', url: '/api/crew-links?category=spa', cookies });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'Please choose one of the listed categories' });
    });

    it('similar titles from 2 characters', async () => {
      const similar = async (title: string) =>
        (await service.app.inject({ method: 'GET', url: `/api/crew-links/similar?title=${encodeURIComponent(title)}`, cookies })).json<{ title: string }[]>();
      expect(await similar('w')).toEqual([]);
      expect((await similar('wa')).map((link) => link.title)).toEqual(expect.arrayContaining(['Waterfront Hotel']));
      expect(await similar('waterfront')).toEqual([{ id: seaHotel.id, title: 'Waterfront Hotel', category: 'hotel', destinations: 'SEA' }]);
    });

    it('search suggestions from 2 characters: destinations, categories, titles and places', async () => {
      const suggest = async (q: string) =>
        (await service.app.inject({ method: 'GET', url: `/api/crew-links/suggestions?q=${encodeURIComponent(q)}`, cookies })).json<{ value: string; kind: string }[]>();
      expect(await suggest('s')).toEqual([]);
      expect(await suggest('se')).toEqual(expect.arrayContaining([{ value: 'SEA', kind: 'destination' }]));
      expect(await suggest('hot')).toEqual(expect.arrayContaining([{ value: 'hotel', kind: 'category' }, { value: 'Waterfront Hotel', kind: 'title' }]));
      expect(await suggest('pier')).toEqual([{ value: 'Pier 66', kind: 'location' }]);
    });

    it('the destination filter lists the airports links name', async () => {
      const response = await service.app.inject({ method: 'GET', url: '/api/crew-links/destinations', cookies });
      expect(response.json()).toEqual(expect.arrayContaining(['DEL', 'LAX', 'SEA', 'SFO']));
      expect(response.json()).not.toContain('ALL');
    });

    it('airport check: a known code, an unknown one, and a code that is not 3 letters', async () => {
      const check = (code: string) => service.app.inject({ method: 'GET', url: `/api/crew-links/airport-check?code=${code}`, cookies });
      expect((await check('sea')).json()).toEqual({ code: 'SEA', known: true });
      expect((await check('XQZ')).json()).toEqual({ code: 'XQZ', known: false });
      const bad = await check('SE');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'Airport codes must be exactly 3 letters' });
    });
  });
});
