import { generateKeyPairSync } from 'node:crypto';
import { eventually } from '@crewswap/kit-testing';
import { ROSTER_MESSAGES, RosterUploadAddress, SUBJECTS } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import { readFixture } from './fixtures';
import { pilotCookie, privateUploadAddress, registerPilot, startTestStack, testDns, UPLOAD_EMAIL, type TestStack } from './helpers';

const COMPANY = 'fly.example-airline.test';
const SPF_ONLY = 'spf-only.example-airline.test';
const ATTACKER = 'attacker.test';
/** A domain whose DNS server does not answer. */
const DNS_DOWN = 'dns-down.example-airline.test';

function dkimKey() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  return { privateKey, record: `v=DKIM1; k=rsa; p=${publicKey.toString('base64')}` };
}

/**
 * Who may import a roster by mail: the company's mail servers sign with DKIM (the test's DNS
 * publishes the key) and its SPF names none of the test's addresses, so only a signature proves
 * a sender there; a second domain proves its senders by SPF alone; an attacker signs and passes
 * SPF for a domain of their own.
 */
describe('emailed rosters are imported only from an authenticated sender or through a private address', () => {
  const company = dkimKey();
  const attacker = dkimKey();
  let stack: TestStack;
  beforeAll(async () => {
    const dns = testDns({
      [COMPANY]: 'v=spf1 ip4:192.0.2.10 -all',
      [`mail._domainkey.${COMPANY}`]: company.record,
      [SPF_ONLY]: 'v=spf1 ip4:127.0.0.1 -all',
      [ATTACKER]: 'v=spf1 ip4:127.0.0.1 -all',
      [`mail._domainkey.${ATTACKER}`]: attacker.record,
    });
    stack = await startTestStack({
      dnsResolver: async (name, type) => {
        if (name.toLowerCase().endsWith(DNS_DOWN)) throw Object.assign(new Error(`query${type} ETIMEOUT ${name}`), { code: 'ETIMEOUT' });
        return dns(name, type);
      },
    });
  });
  afterAll(async () => {
    await stack.stop();
  });

  const send = (options: { dkim?: { domainName: string; privateKey: string }; envelopeFrom: string; from: string; to?: string }) =>
    nodemailer
      .createTransport({
        host: '127.0.0.1',
        port: stack.roster.smtpPort!,
        secure: false,
        ignoreTLS: true,
        ...(options.dkim ? { dkim: { domainName: options.dkim.domainName, keySelector: 'mail', privateKey: options.dkim.privateKey } } : {}),
      })
      .sendMail({
        envelope: { from: options.envelopeFrom, to: [options.to ?? UPLOAD_EMAIL] },
        from: options.from,
        to: options.to ?? UPLOAD_EMAIL,
        subject: 'My roster',
        text: 'Roster attached.',
        attachments: [{ filename: 'roster.ics', content: readFixture('roster-a-lhr-a350-cp.ics'), contentType: 'text/calendar' }],
      });
  const historyOf = async (mailFrom: string) => {
    const [mail] = await eventually(async () => {
      const rows = await stack.roster.runtime.db('inbound_mail').where({ mail_from: mailFrom }).whereNotNull('processed_at');
      return rows.length === 1 && rows;
    }, 20_000);
    return stack.roster.runtime.db('roster_history').where({ mail_id: mail.id }).first();
  };
  const repliesTo = async (to: string) =>
    ((await stack.roster.runtime.db('outbox').where({ subject: SUBJECTS.sendMail }).orderBy('seq')) as { envelope: { data: { to: string; text: string } } }[]).map((row) => row.envelope.data).filter((mail) => mail.to === to);
  const tripsOf = (pilotId: string) => stack.trips.repositories.trips.listByPilot(pilotId);
  const storedMails = async () => Number((await stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count'))[0]!.count);
  /** Roster history as an admin searches it for an address. */
  const historyNaming = async (email: string) => (await stack.roster.repositories.history.list({ search: email, limit: 50, offset: 0 }, '2026-11-01')).records;

  it("a mail signed by the company's domain (DKIM aligned with From) is imported for the pilot with that address", async () => {
    const email = `imogen@${COMPANY}`;
    const pilot = await registerPilot(stack, { email, base: 'LHR', fleet: 'A350' });
    await send({ dkim: { domainName: COMPANY, privateKey: company.privateKey }, envelopeFrom: email, from: email });
    expect(await historyOf(email)).toMatchObject({ success: true, trips_added: 9, pilot_id: pilot.id });
    expect(await tripsOf(pilot.id)).toHaveLength(9);
  });

  it('a mail from a domain whose SPF names the sending server is imported without a signature', async () => {
    const email = `rhys@${SPF_ONLY}`;
    const pilot = await registerPilot(stack, { email, base: 'LHR', fleet: 'A350' });
    await send({ envelopeFrom: email, from: email });
    expect(await historyOf(email)).toMatchObject({ success: true, trips_added: 9 });
    expect(await tripsOf(pilot.id)).toHaveLength(9);
  });

  describe("anyone else cannot import a roster as another pilot: refused in the SMTP transaction, recorded in roster history, no reply", () => {
    let victim: string;
    const email = `victim@${COMPANY}`;
    beforeAll(async () => {
      victim = (await registerPilot(stack, { email, base: 'LHR', fleet: 'A350' })).id;
    });

    it.each([
      ['an unsigned mail with the pilot in From and in MAIL FROM', { envelopeFrom: email, from: email }],
      ["a mail signed by the attacker's own domain", { dkim: { domainName: ATTACKER, privateKey: attacker.privateKey }, envelopeFrom: `bounce-1@${ATTACKER}`, from: email }],
      ["a mail whose MAIL FROM passes SPF for the attacker's domain", { envelopeFrom: `bounce-2@${ATTACKER}`, from: email }],
      ["a mail signed with a key that is not the company's", { dkim: { domainName: COMPANY, privateKey: attacker.privateKey }, envelopeFrom: `bounce-3@${ATTACKER}`, from: email }],
    ])('%s', async (_, options) => {
      const recorded = (await historyNaming(email)).length;
      const stored = await storedMails();
      const refused = await send(options).catch((error: unknown) => error);
      // The sender's own server tells them, in words a person understands; nothing is taken.
      expect(refused).toMatchObject({ responseCode: 550, response: expect.stringContaining("This address accepts rosters only from a pilot's registered address or their private upload address") });
      expect(await storedMails()).toBe(stored);
      // The refusal is in roster history under the address the mail named, tied to no pilot: anyone can write that From.
      const [latest, ...earlier] = await historyNaming(email);
      expect(earlier).toHaveLength(recorded);
      expect(latest).toMatchObject({
        success: false,
        sourceType: 'email',
        pilotId: null,
        senderEmail: email,
        errorType: 'UNAUTHENTICATED_SENDER',
        errorMessage: ROSTER_MESSAGES.UNAUTHENTICATED_SENDER,
        confirmationEmailSent: false,
      });
    });

    it('none of them stored a trip or sent a reply to anyone', async () => {
      expect(await tripsOf(victim)).toEqual([]);
      expect(await repliesTo(email)).toEqual([]);
      expect((await repliesTo(`bounce-1@${ATTACKER}`)).length + (await repliesTo(`bounce-2@${ATTACKER}`)).length).toBe(0);
    });
  });

  it("a mail whose sender's DNS does not answer is deferred (451) for the sending server to try again: nothing is stored or recorded", async () => {
    const email = `gwen@${DNS_DOWN}`;
    await registerPilot(stack, { email });
    const stored = await storedMails();
    await expect(send({ envelopeFrom: email, from: email })).rejects.toMatchObject({ responseCode: 451 });
    expect(await storedMails()).toBe(stored);
    expect(await historyNaming(email)).toEqual([]);
  });

  describe("the pilot's private upload address", () => {
    it('GET answers the same address every time, at the upload domain; POST replaces it', async () => {
      const pilot = await registerPilot(stack);
      const ask = (method: 'GET' | 'POST') => stack.roster.app.inject({ method, url: '/api/roster/upload-address', cookies: pilotCookie(pilot.id) });
      const first = RosterUploadAddress.parse((await ask('GET')).json()).address;
      expect(first).toMatch(/^roster-upload\+[a-z0-9]{20}@example-airline\.test$/);
      expect(RosterUploadAddress.parse((await ask('GET')).json()).address).toBe(first);
      const rotated = await ask('POST');
      expect(rotated.statusCode).toBe(200);
      expect(RosterUploadAddress.parse(rotated.json()).address).not.toBe(first);
      expect((await stack.roster.app.inject({ method: 'GET', url: '/api/roster/upload-address' })).statusCode).toBe(401);
    });

    it('POST takes no body but {}: anything else is a 400 and the address stays as it was', async () => {
      const pilot = await registerPilot(stack);
      const address = await privateUploadAddress(stack, pilot.id);
      for (const payload of ['not json', 'null', '{"address":"mine"}']) {
        const response = await stack.roster.app.inject({ method: 'POST', url: '/api/roster/upload-address', cookies: pilotCookie(pilot.id), payload, headers: { 'content-type': 'application/json' } });
        expect(response.statusCode).toBe(400);
      }
      expect(await privateUploadAddress(stack, pilot.id)).toBe(address);
      const rotated = await stack.roster.app.inject({ method: 'POST', url: '/api/roster/upload-address', cookies: pilotCookie(pilot.id), payload: {} });
      expect(rotated.statusCode).toBe(200);
    });

    it("imports mail sent to it for that pilot, whoever sent it, and replies to the pilot's registered address", async () => {
      const email = `niamh@${COMPANY}`;
      const pilot = await registerPilot(stack, { email, base: 'LHR', fleet: 'A350' });
      const address = await privateUploadAddress(stack, pilot.id);
      // From a personal mailbox whose domain vouches for nothing.
      await send({ envelopeFrom: 'niamh.home@personal-mail.test', from: 'niamh.home@personal-mail.test', to: address });
      expect(await historyOf('niamh.home@personal-mail.test')).toMatchObject({ success: true, trips_added: 9, pilot_id: pilot.id, sender_email: 'niamh.home@personal-mail.test' });
      expect(await tripsOf(pilot.id)).toHaveLength(9);
      expect((await repliesTo(email)).map((reply) => reply.text.includes('9 trips added.'))).toEqual([true]);
      expect(await repliesTo('niamh.home@personal-mail.test')).toEqual([]);
    });

    it('a replaced address, or one with a token nobody holds, is refused by the SMTP server and nothing is stored', async () => {
      const pilot = await registerPilot(stack);
      const old = await privateUploadAddress(stack, pilot.id);
      await stack.roster.app.inject({ method: 'POST', url: '/api/roster/upload-address', cookies: pilotCookie(pilot.id) });
      const before = await stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count');
      await expect(send({ envelopeFrom: 'x@personal-mail.test', from: 'x@personal-mail.test', to: old })).rejects.toMatchObject({ responseCode: 550 });
      await expect(send({ envelopeFrom: 'x@personal-mail.test', from: 'x@personal-mail.test', to: 'roster-upload+0123456789abcdef0123@example-airline.test' })).rejects.toMatchObject({ responseCode: 550 });
      const after = await stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count');
      expect(after[0]!.count).toBe(before[0]!.count);
    });
  });
});
