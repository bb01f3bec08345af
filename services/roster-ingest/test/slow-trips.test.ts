import { eventually } from '@crewswap/kit-testing';
import { RPC } from '@crewswap/proto';
import nodemailer from 'nodemailer';
import { readFixture } from './fixtures';
import { registerPilot, startTestStack, UPLOAD_EMAIL, type TestStack } from './helpers';

const IMOGEN = 'imogen.thistlewood@example-airline.test';
const TRIPS_TAKES_MS = 10_000;

/**
 * The mail worker asks trips to import a roster (up to 30 s) before it opens the transaction that
 * records the result: while trips takes its time, no pool connection waits in a transaction.
 */
describe('an emailed roster while trips is slow to answer', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // Acks wait longer than trips does, so the mail is not handed to a second worker meanwhile.
    stack = await startTestStack({ config: { MAIL_ACK_WAIT_MS: 30_000 } });
  });
  afterAll(async () => {
    await stack.stop();
  });

  /** Connections of roster-ingest's database that sit in a transaction, doing nothing, for over 2 s. */
  const heldInTransaction = async () => {
    const { rows } = await stack.roster.runtime.db.raw<{ rows: { n: number }[] }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND xact_start < now() - interval '2 seconds'",
    );
    return rows[0]!.n;
  };

  it('holds no connection idle in a transaction while trips answers, then records the import', async () => {
    const pilot = await registerPilot(stack, { email: IMOGEN, base: 'LHR', fleet: 'A350' });
    // A stand-in for trips that answers the import after TRIPS_TAKES_MS.
    await stack.trips.close();
    const { bus } = stack.roster.runtime;
    let asked!: () => void;
    const requested = new Promise<void>((resolve) => (asked = resolve));
    const standIn = bus.nc.subscribe(bus.subject(RPC.importTrips), {
      callback: (_error, message) => {
        asked();
        const { trips } = message.json<{ trips: unknown[] }>();
        setTimeout(() => message.respond(JSON.stringify({ processedCount: trips.length, duplicateCount: 0, conflicts: [], skipped: [] })), TRIPS_TAKES_MS);
      },
    });

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.roster.smtpPort!, secure: false, ignoreTLS: true });
    await transport.sendMail({ envelope: { from: IMOGEN, to: [UPLOAD_EMAIL] }, raw: readFixture('roster-a.eml') });
    await requested;
    const asking = Date.now();
    const held: number[] = [];
    while (Date.now() - asking < TRIPS_TAKES_MS - 1000) {
      held.push(await heldInTransaction());
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(held.length).toBeGreaterThan(10);
    expect(Math.max(...held)).toBe(0);

    const [record] = await eventually(async () => {
      const rows = await stack.roster.runtime.db('roster_history').where({ pilot_id: pilot.id });
      return rows.length > 0 && rows;
    }, 15_000);
    expect(record).toMatchObject({ success: true, source_type: 'email' });
    expect(record.trips_added).toBeGreaterThan(0);
    standIn.unsubscribe();
  }, 60_000);
});
