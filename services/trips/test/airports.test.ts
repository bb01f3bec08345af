import { gunzipSync } from 'node:zlib';
import { IataCodeList, type ExcludedAirport, type IataCode } from '@crewswap/proto';
import { adminCookie, makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('IATA codes and excluded airports', () => {
  let service: TestService;
  let pilot: Record<string, string>;
  const admin = adminCookie(['manage_destinations']);

  beforeAll(async () => {
    service = await startTestService();
    pilot = pilotCookie((await registerPilot(service, makePilot())).id);
  });
  afterAll(async () => {
    await service.stop();
  });

  it('the IATA table is seeded with every real airport, and the list is cached 10 minutes', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/api/iata-codes' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=600');
    const codes = IataCodeList.parse(response.json());
    expect(codes.length).toBeGreaterThan(9000);
    for (const code of ['LHR', 'MAN', 'JFK', 'BOS', 'LAX', 'SFO', 'SEA', 'ATL', 'MCO', 'LAS', 'BGI', 'DEL', 'JNB', 'LOS', 'TLV', 'BOM', 'MBJ', 'ANU']) {
      expect([code, codes.includes(code)]).toEqual([code, true]);
    }
    // The full records stay on the admin route.
    const full = await service.app.inject({ method: 'GET', url: '/api/admin/iata-codes', cookies: admin });
    const byCode = new Map((full.json() as IataCode[]).map((code) => [code.iataCode, code]));
    expect(byCode.get('JFK')).toMatchObject({ icaoCode: 'KJFK', continent: 'NA', isoCountry: 'US', municipality: 'New York' });
    expect(byCode.get('BGI')).toMatchObject({ icaoCode: 'TBPB', isoCountry: 'BB' });
  });

  it('the public list is the codes alone, sorted, under 30 KB gzipped; a repeat quoting its ETag is answered 304', async () => {
    const plain = await service.app.inject({ method: 'GET', url: '/api/iata-codes' });
    const codes = IataCodeList.parse(plain.json());
    expect(codes).toEqual([...codes].sort());
    const zipped = await service.app.inject({ method: 'GET', url: '/api/iata-codes', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(30 * 1024);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(codes);
    const etag = zipped.headers.etag as string;
    expect(plain.headers.etag).toBe(etag);

    const repeat = await service.app.inject({ method: 'GET', url: '/api/iata-codes', headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' } });
    expect([repeat.statusCode, repeat.body]).toEqual([304, '']);
    const stale = await service.app.inject({ method: 'GET', url: '/api/iata-codes', headers: { 'if-none-match': 'W/"something-else"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('a code added changes the list and its ETag, so a browser holding the old list gets the new one', async () => {
    const before = await service.app.inject({ method: 'GET', url: '/api/iata-codes' });
    const created = await service.app.inject({ method: 'POST', url: '/api/admin/iata-codes', cookies: admin, payload: { iataCode: 'QZE' } });
    expect(created.statusCode).toBe(201);
    const after = await service.app.inject({ method: 'GET', url: '/api/iata-codes', headers: { 'if-none-match': before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(IataCodeList.parse(after.json())).toContain('QZE');
    await service.app.inject({ method: 'DELETE', url: `/api/admin/iata-codes/${(created.json() as IataCode).id}`, cookies: admin });
  });

  it('a pilot adds an unknown airport code (Confirm Valid Airport); a duplicate answers 409', async () => {
    expect((await service.app.inject({ method: 'POST', url: '/api/trips', cookies: pilot, payload: tripBody({ route: 'XQX' }) })).statusCode).toBe(400);
    const created = await service.app.inject({
      method: 'POST',
      url: '/api/iata-codes',
      cookies: pilot,
      payload: { iataCode: 'xqx', icaoCode: 'xqxx', continent: 'eu', isoCountry: 'gb', municipality: 'Testville' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ iataCode: 'XQX', icaoCode: 'XQXX', continent: 'EU', isoCountry: 'GB', municipality: 'Testville' });
    expect((await service.app.inject({ method: 'POST', url: '/api/trips', cookies: pilot, payload: tripBody({ route: 'XQX' }) })).statusCode).toBe(201);
    const again = await service.app.inject({ method: 'POST', url: '/api/iata-codes', cookies: pilot, payload: { iataCode: 'XQX' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('IATA code XQX already exists');
  });

  it.each([
    [{}, 'IATA code is required'],
    [{ iataCode: '' }, 'IATA code is required'],
    [{ iataCode: 'AB' }, 'IATA code must be exactly 3 letters'],
    [{ iataCode: 'AB1' }, 'IATA code must be exactly 3 letters'],
    [{ iataCode: 'ABC', icaoCode: 'ABCDE' }, 'ICAO code must be at most 4 characters'],
    [{ iataCode: 'ABC', continent: 'EUR' }, 'Continent must be 2 characters'],
    [{ iataCode: 'ABC', isoCountry: 'G' }, 'Country code must be 2 characters'],
  ])('checks an IATA code body %j', async (payload, message) => {
    const response = await service.app.inject({ method: 'POST', url: '/api/admin/iata-codes', cookies: admin, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
  });

  it('an admin adds, edits and deletes IATA codes', async () => {
    const created = (await service.app.inject({ method: 'POST', url: '/api/admin/iata-codes', cookies: admin, payload: { iataCode: 'QZX' } })).json() as IataCode;
    expect(created).toMatchObject({ iataCode: 'QZX', icaoCode: null, municipality: null });
    const edited = await service.app.inject({ method: 'PATCH', url: `/api/admin/iata-codes/${created.id}`, cookies: admin, payload: { municipality: 'Edited', isoCountry: 'fr' } });
    expect(edited.json()).toMatchObject({ iataCode: 'QZX', municipality: 'Edited', isoCountry: 'FR' });
    const clash = await service.app.inject({ method: 'PATCH', url: `/api/admin/iata-codes/${created.id}`, cookies: admin, payload: { iataCode: 'JFK' } });
    expect(clash.statusCode).toBe(409);
    const list = (await service.app.inject({ method: 'GET', url: '/api/admin/iata-codes', cookies: admin })).json() as IataCode[];
    expect(list.some((code) => code.iataCode === 'QZX')).toBe(true);
    expect((await service.app.inject({ method: 'DELETE', url: `/api/admin/iata-codes/${created.id}`, cookies: admin })).statusCode).toBe(204);
    expect((await service.app.inject({ method: 'DELETE', url: `/api/admin/iata-codes/${created.id}`, cookies: admin })).statusCode).toBe(404);
    const unknown = await service.app.inject({ method: 'PATCH', url: `/api/admin/iata-codes/${created.id}`, cookies: admin, payload: { extra: 1 } });
    expect(unknown.statusCode).toBe(400);
  });

  it('excluded airports: LHR and MAN always excluded; add, list and delete others', async () => {
    const list = async () => (await service.app.inject({ method: 'GET', url: '/api/admin/excluded-airports', cookies: admin })).json() as ExcludedAirport[];
    expect((await list()).map((airport) => airport.iataCode)).toEqual(['LHR', 'MAN']);
    const added = await service.app.inject({ method: 'POST', url: '/api/admin/excluded-airports', cookies: admin, payload: { iataCode: 'shj' } });
    expect(added.statusCode).toBe(201);
    expect(added.json().iataCode).toBe('SHJ');
    const duplicate = await service.app.inject({ method: 'POST', url: '/api/admin/excluded-airports', cookies: admin, payload: { iataCode: 'SHJ' } });
    expect(duplicate.statusCode).toBe(409);
    expect((await list()).map((airport) => airport.iataCode)).toEqual(['LHR', 'MAN', 'SHJ']);
    const lhr = (await list()).find((airport) => airport.iataCode === 'LHR')!;
    const refused = await service.app.inject({ method: 'DELETE', url: `/api/admin/excluded-airports/${lhr.id}`, cookies: admin });
    expect(refused.statusCode).toBe(400);
    expect((await service.app.inject({ method: 'DELETE', url: `/api/admin/excluded-airports/${added.json().id}`, cookies: admin })).statusCode).toBe(204);
    expect((await list()).map((airport) => airport.iataCode)).toEqual(['LHR', 'MAN']);
  });

  it.each([{ iataCode: 'AB' }, { iataCode: 'ABCD' }, {}, { iataCode: 7 }])('an excluded airport must be exactly 3 characters: %j', async (payload) => {
    const response = await service.app.inject({ method: 'POST', url: '/api/admin/excluded-airports', cookies: admin, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'IATA code must be exactly 3 characters', title: 'Invalid IATA Code' });
  });
});
