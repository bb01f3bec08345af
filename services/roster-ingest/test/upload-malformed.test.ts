import { gzipSync } from 'node:zlib';
import { UNSUPPORTED_ENCODING_MESSAGE } from '@crewswap/kit';
import { ROSTER_UPLOAD_MESSAGES } from '@crewswap/proto';
import { readFixture } from './fixtures';
import { multipart, pilotCookie, registerPilot, startTestStack, type TestStack } from './helpers';

/** Requests no browser's FormData sends: each is refused with a message for a person, and nothing is stored. */
describe('a roster upload that is not a readable multipart form', () => {
  let stack: TestStack;
  let pilotId: string;
  beforeAll(async () => {
    stack = await startTestStack({ config: { SMTP_INGEST_ENABLED: false, MAIL_WORKER_ENABLED: false } });
    pilotId = (await registerPilot(stack, { base: 'LHR', fleet: 'A350' })).id;
  });
  afterAll(async () => {
    await stack.stop();
  });

  const roster = readFixture('roster-a-lhr-a350-cp.ics');
  const send = (payload: Buffer | string, headers: Record<string, string>) =>
    stack.roster.app.inject({ method: 'POST', url: '/api/roster/upload', payload, headers, cookies: pilotCookie(pilotId) });
  const good = multipart('roster.ics', roster);
  const boundaryOf = (headers: Record<string, string>) => /boundary=(.+)$/.exec(headers['content-type']!)![1]!;

  it.each<[string, () => { payload: Buffer | string; headers: Record<string, string> }]>([
    ['a multipart type without a boundary', () => ({ payload: good.payload, headers: { 'content-type': 'multipart/form-data' } })],
    ['a body cut off before its closing boundary', () => ({ payload: good.payload.subarray(0, good.payload.length - 400), headers: good.headers })],
    ['a boundary that does not match the body', () => ({ payload: good.payload, headers: { 'content-type': 'multipart/form-data; boundary=somethingelse' } })],
    ['JSON sent as multipart', () => ({ payload: JSON.stringify({ roster: roster.toString('utf8') }), headers: good.headers })],
    ['a gzip body without saying so', () => ({ payload: gzipSync(good.payload), headers: good.headers })],
    ['a part header without its blank line', () => ({ payload: `--${boundaryOf(good.headers)}\r\nContent-Disposition: form-data; name="roster"; filename="r.ics"`, headers: good.headers })],
  ])('%s: 400 with a clear message', async (_, build) => {
    const { payload, headers } = build();
    const response = await send(payload, headers);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: ROSTER_UPLOAD_MESSAGES.unreadable, message: ROSTER_UPLOAD_MESSAGES.unreadable });
  });

  // A declared encoding is refused by every service alike (415, RFC 7694), before the form is read.
  it('a gzip-compressed multipart body that says so: 415 with a clear message', async () => {
    const response = await send(gzipSync(good.payload), { ...good.headers, 'content-encoding': 'gzip' });
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toBe(UNSUPPORTED_ENCODING_MESSAGE);
  });

  it('a file name holding a NUL: 400 with a clear message', async () => {
    const body = multipart('roster\u0000.ics', roster);
    const response = await send(body.payload, body.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: ROSTER_UPLOAD_MESSAGES.badFileName, message: ROSTER_UPLOAD_MESSAGES.badFileName });
  });

  it('nothing was stored: no trips and no history record', async () => {
    expect(await stack.trips.repositories.trips.listByPilot(pilotId)).toEqual([]);
    expect(await stack.roster.runtime.db('roster_history')).toEqual([]);
  });

  it('the same pilot then uploads the real roster', async () => {
    const response = await send(good.payload, good.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json().processedCount).toBe(9);
  });
});
