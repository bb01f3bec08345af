import { eventually } from '@crewswap/kit-testing';
import { SUBJECTS } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import { readFixture } from './fixtures';
import { registerPilot, startTestStack, UPLOAD_EMAIL, type TestStack } from './helpers';

const IMOGEN = 'imogen.thistlewood@example-airline.test';

describe('emailed rosters during an emergency shutdown', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack.stop();
  });

  /** Announces the state the way admin does: an `admin.system.*` event through an outbox. */
  const announce = (subject: typeof SUBJECTS.systemShutdown | typeof SUBJECTS.systemResumed) =>
    stack.roster.runtime.db.transaction((trx) => stack.roster.runtime.outbox.write(trx, subject, { reason: subject === SUBJECTS.systemShutdown ? 'drill' : null }));
  const history = () => stack.roster.runtime.db('roster_history');

  it('are held, not imported, until operations resume, and then imported once', async () => {
    const pilot = await registerPilot(stack, { email: IMOGEN, base: 'LHR', fleet: 'A350' });
    await announce(SUBJECTS.systemShutdown);
    await eventually(() => stack.roster.repositories.state.isShutdown(), 10_000);

    const info = await nodemailer
      .createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: IMOGEN, to: [UPLOAD_EMAIL] }, raw: readFixture('roster-a.eml') });
    // The SMTP server still takes the mail: the sender is not bounced.
    expect(info.accepted).toEqual([UPLOAD_EMAIL]);
    await eventually(async () => (await stack.roster.runtime.db('inbound_mail').whereNotNull('held_at')).length === 1, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await stack.trips.repositories.trips.listByPilot(pilot.id)).toEqual([]);
    expect(await history()).toEqual([]);
    expect(await stack.roster.runtime.db('outbox').where({ subject: SUBJECTS.sendMail })).toEqual([]);

    await announce(SUBJECTS.systemResumed);
    await eventually(async () => (await history()).length === 1, 20_000);
    expect(await history()).toEqual([expect.objectContaining({ success: true, trips_added: 9 })]);
    expect(await stack.trips.repositories.trips.listByPilot(pilot.id)).toHaveLength(9);
    expect(await stack.roster.runtime.db('inbound_mail').whereNotNull('held_at')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await history()).toHaveLength(1);
  });
});
