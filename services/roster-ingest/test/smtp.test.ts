import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@crewswap/kit-testing';
import { ROSTER_MESSAGES, SUBJECTS } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import { expected, readFixture, tripKey } from './fixtures';
import { registerPilot, startTestStack, UPLOAD_EMAIL, type TestStack } from './helpers';

const IMOGEN = 'imogen.thistlewood@example-airline.test';

describe('emailed rosters: the SMTP receiver and the mail worker', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ config: { SMTP_MAX_MESSAGE_BYTES: 400 * 1024 } });
  });
  afterAll(async () => {
    await stack.stop();
  });

  const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, ignoreTLS: true });
  const historyFor = async (sender: string) => stack.roster.repositories.history.list({ search: sender, limit: 10, offset: 0 }, '2026-11-01');
  const mailsTo = async (to: string) =>
    ((await stack.roster.runtime.db('outbox').where({ subject: SUBJECTS.sendMail }).orderBy('seq')) as { envelope: { data: { to: string; subject: string; text: string; html?: string } } }[])
      .map((row) => row.envelope.data)
      .filter((mail) => mail.to === to);
  const storedMails = async () => Number((await stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count'))[0]!.count);
  // The 5xx a refused sender's own mail server passes on to them, in the words.
  const refusal = { responseCode: 550, response: expect.stringContaining("This address accepts rosters only from a pilot's registered address or their private upload address") };

  it('roster-a.eml sent by a registered pilot imports its 9 trips, writes the reply and the history record', async () => {
    const pilot = await registerPilot(stack, { email: IMOGEN, base: 'LHR', fleet: 'A350', firstName: 'Imogen', lastName: 'Thistlewood' });
    const info = await transport().sendMail({ envelope: { from: IMOGEN, to: [UPLOAD_EMAIL] }, raw: readFixture('roster-a.eml') });
    expect(info.accepted).toEqual([UPLOAD_EMAIL]);

    const stored = await eventually(async () => {
      const trips = await stack.trips.repositories.trips.listByPilot(pilot.id);
      return trips.length === 9 && trips;
    }, 20_000);
    expect(stored.map(tripKey).sort()).toEqual(expected.files['roster-a-lhr-a350-cp.ics']!.trips!.map(tripKey).sort());
    expect(new Set(stored.map((trip) => trip.source))).toEqual(new Set(['email']));

    const { records } = await eventually(async () => {
      const found = await historyFor(IMOGEN);
      return found.records.length === 1 && found;
    });
    expect(records[0]).toMatchObject({
      pilotId: pilot.id,
      pilotName: 'Imogen Thistlewood',
      success: true,
      sourceType: 'email',
      senderEmail: IMOGEN,
      fileName: 'roster-a-lhr-a350-cp.ics',
      fileFormatReceived: 'text/calendar',
      attachmentCount: 1,
      fileSizeBytes: readFixture('roster-a-lhr-a350-cp.ics').length,
      totalEvents: 34,
      tripsAdded: 9,
      skippedEvents: 18,
      confirmationEmailSent: true,
    });
    const replies = await mailsTo(IMOGEN);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.text).toContain('9 trips added.');
    expect(replies[0]!.html).toContain('<p>9 trips added.</p>');
    expect(replies[0]!.html).toContain('CrewSwap');
  });

  it('the same mail again adds 0 trips and replies that 9 were already there', async () => {
    await transport().sendMail({ envelope: { from: IMOGEN, to: [UPLOAD_EMAIL] }, raw: readFixture('roster-a.eml') });
    await eventually(async () => (await historyFor(IMOGEN)).records.length === 2, 20_000);
    const [latest] = (await historyFor(IMOGEN)).records;
    expect(latest).toMatchObject({ success: true, tripsAdded: 0, duplicateEvents: 9 });
    const replies = await mailsTo(IMOGEN);
    expect(replies.at(-1)!.text).toContain('9 trips were already in CrewSwap');
  });

  it("an authenticated sender who is not a registered pilot is refused in the SMTP transaction, in words a person understands, and recorded; nothing is stored or imported and no reply is sent", async () => {
    const stranger = 'someone@example-airline.test';
    const before = await storedMails();
    await expect(transport().sendMail({ envelope: { from: stranger, to: [UPLOAD_EMAIL] }, raw: readFixture('roster-a.eml').toString('utf8').replaceAll(IMOGEN, stranger) })).rejects.toMatchObject(refusal);
    const { records } = await historyFor(stranger);
    expect(records).toEqual([expect.objectContaining({ success: false, sourceType: 'email', pilotId: null, senderEmail: stranger, errorType: 'UNKNOWN_SENDER', errorMessage: ROSTER_MESSAGES.UNKNOWN_SENDER, confirmationEmailSent: false })]);
    expect(await storedMails()).toBe(before);
    expect(await mailsTo(stranger)).toEqual([]);
    const processed = await stack.roster.runtime.db('outbox').where({ subject: SUBJECTS.rosterProcessed });
    expect(processed.every((row: { envelope: { data: { historyId: string } } }) => row.envelope.data.historyId !== records[0]!.id)).toBe(true);
  });

  it('a sender whose domain vouches for nothing is refused in the SMTP transaction and recorded; nothing is stored and no reply is sent', async () => {
    const stranger = 'someone@elsewhere.test';
    const before = await storedMails();
    await expect(transport().sendMail({ envelope: { from: stranger, to: [UPLOAD_EMAIL] }, raw: readFixture('roster-a.eml').toString('utf8').replaceAll(IMOGEN, stranger) })).rejects.toMatchObject(refusal);
    const { records } = await historyFor(stranger);
    expect(records).toEqual([expect.objectContaining({ success: false, pilotId: null, senderEmail: stranger, errorType: 'UNAUTHENTICATED_SENDER', errorMessage: ROSTER_MESSAGES.UNAUTHENTICATED_SENDER, confirmationEmailSent: false })]);
    expect(await storedMails()).toBe(before);
    expect(await mailsTo(stranger)).toEqual([]);
  });

  it('two calendars in one mail are both imported', async () => {
    const email = 'niamh.okafor@example-airline.test';
    const pilot = await registerPilot(stack, { email, base: 'LHR', fleet: 'B787', rank: 'FO' });
    // Roster C a year later, so the two calendars never overlap.
    const later = readFixture('roster-c-lhr-b787-fo.ics_').toString('utf8').replace(/2027/g, '2028').replace(/2026/g, '2027');
    await transport().sendMail({
      from: email,
      to: UPLOAD_EMAIL,
      subject: 'my rosters',
      text: 'both months attached',
      attachments: [
        { filename: 'december.ics_', content: readFixture('roster-c-lhr-b787-fo.ics_'), contentType: 'application/octet-stream' },
        { filename: 'next-year.cal', content: later, contentType: 'text/calendar' },
      ],
    });
    const trips = await eventually(async () => {
      const list = await stack.trips.repositories.trips.listByPilot(pilot.id);
      return list.length === 18 && list;
    }, 20_000);
    expect(trips).toHaveLength(18);
    // Trips are stored by the import call before the worker writes its history record.
    const { records } = await eventually(async () => {
      const found = await historyFor(email);
      return found.records.length === 1 && found;
    }, 20_000);
    expect(records[0]).toMatchObject({ success: true, attachmentCount: 2, tripsAdded: 18, fileName: 'december.ics_, next-year.cal' });
  });

  it("an emailed roster that changes an earlier one replies with '<a> added, <c> changed, <r> removed' and each trip's before and after", async () => {
    const email = 'kwame.strand@example-airline.test';
    const pilot = await registerPilot(stack, { email, base: 'LHR', fleet: 'B787', rank: 'FO' });
    const send = (filename: string, content: Buffer) => transport().sendMail({ from: email, to: UPLOAD_EMAIL, subject: 'roster', text: 'attached', attachments: [{ filename, content, contentType: 'text/calendar' }] });
    await send('december.ics_', readFixture('roster-c-lhr-b787-fo.ics_'));
    await eventually(async () => (await historyFor(email)).records.length === 1, 20_000);
    await send('december-changed.ics_', readFileSync(join(__dirname, 'fixtures/rosters/changes/roster-c-changed.ics_')));
    await eventually(async () => (await historyFor(email)).records.length === 2, 20_000);
    expect((await historyFor(email)).records[0]).toMatchObject({ tripsAdded: 1, tripsChanged: 3, tripsRemoved: 1 });
    const reply = (await mailsTo(email)).at(-1)!;
    expect(reply.subject).toBe('CrewSwap: roster imported, 1 added, 3 changed, 1 removed');
    expect(reply.text).toContain('1 added, 3 changed, 1 removed, 5 duplicates skipped.');
    expect(reply.text).toContain('Removed: VS411/VS412 LOS (B787), 2026-12-15 to 2026-12-17');
    expect(reply.text).toContain('Changed: VS007/VS008 LAX (B787), 2027-01-08 to 2027-01-11 is now VS023/VS024 LAX (B787), 2027-01-08 to 2027-01-11');
    expect(reply.text).toContain('Changed: VS000/VS000 HSBY, 2026-12-06 is now VS000/VS000 SBY, 2026-12-06');
    expect(reply.text).toContain('Added: VS025/VS026 JFK (B787), 2027-01-26 to 2027-01-28');
    expect((await stack.trips.repositories.trips.listByPilot(pilot.id)).map((trip) => trip.source)).toEqual(Array(9).fill('email'));
  });

  it('a mail with no calendar is recorded as failed and answered', async () => {
    const email = 'no.calendar@example-airline.test';
    await registerPilot(stack, { email });
    await transport().sendMail({ from: email, to: UPLOAD_EMAIL, subject: 'roster', text: 'forgot the file', attachments: [{ filename: 'roster.pdf', content: '%PDF-1.4' }] });
    const { records } = await eventually(async () => {
      const found = await historyFor(email);
      return found.records.length === 1 && found;
    }, 20_000);
    expect(records[0]).toMatchObject({ success: false, errorType: 'NO_CALENDAR_ATTACHMENT', attachmentCount: 1 });
    expect((await mailsTo(email))[0]!.text).toContain(ROSTER_MESSAGES.NO_CALENDAR_ATTACHMENT);
  });

  it('an oversized mail is refused at the SMTP level and nothing is stored', async () => {
    const before = await stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count');
    const big = Buffer.alloc(500 * 1024, 'B');
    await expect(
      transport().sendMail({ from: IMOGEN, to: UPLOAD_EMAIL, subject: 'big', text: 'x', attachments: [{ filename: 'big.ics', content: big }] }),
    ).rejects.toMatchObject({ responseCode: 552 });
    const after = await stack.roster.runtime.db('inbound_mail').count<{ count: string }[]>('* as count');
    expect(after[0]!.count).toBe(before[0]!.count);
  });

  it('mail for any other address than the upload address is refused', async () => {
    await expect(transport().sendMail({ from: IMOGEN, to: 'someone-else@example-airline.test', subject: 'x', text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
  });
});
