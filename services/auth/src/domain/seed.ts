import { randomInt, randomUUID } from 'node:crypto';
import { BASES, FLEETS, SUBJECTS, type Pilot } from '@crewswap/proto';
import { NEW_PILOT_DEFAULTS, toPilot } from '../data/pilots';
import { publishProfile, type AuthDeps } from './deps';

const FIRST_NAMES = [
  'Amelia', 'Oliver', 'Isla', 'George', 'Ava', 'Harry', 'Mia', 'Jack', 'Sophie', 'Charlie', 'Grace', 'Thomas',
  'Freya', 'James', 'Lily', 'William', 'Emily', 'Henry', 'Poppy', 'Oscar', 'Ella', 'Leo', 'Chloe', 'Arthur',
  'Ruby', 'Alfie', 'Evie', 'Finley', 'Hannah', 'Samuel', 'Zara', 'Daniel', 'Priya', 'Rohan', 'Niamh', 'Callum',
];
const LAST_NAMES = [
  'Bennett', 'Hughes', 'Clarke', 'Patel', 'Turner', 'Walsh', 'Murphy', 'Fletcher', 'Harding', 'Osborne', 'Kaur',
  'Reid', 'Sinclair', 'Gallagher', 'Whitaker', 'Moss', 'Ashworth', 'Doyle', 'Lambert', 'Pearce', 'Holloway', 'Shah',
  'Barker', 'Kemp', 'Rowe', 'Fraser', 'Dunn', 'Maddox', 'Iqbal', 'Thornton',
];

/** The demo pilots' password, for local use only. */
export const DEMO_PASSWORD = 'password';

/**
 * Demo data: when there are no test pilots yet, creates `count` of them spread over ranks,
 * fleets and bases (some captains LTC). Answers with every test pilot either way.
 */
export function createSeedDemoPilots(deps: Pick<AuthDeps, 'config' | 'db' | 'repos' | 'clock' | 'passwords' | 'outbox'>) {
  return {
    async execute(input: { count: number }): Promise<{ created: number; pilots: Pilot[] }> {
      const { count } = input;
      const passwordHash = await deps.passwords.hash(DEMO_PASSWORD);
      const domain = deps.config.COMPANY_EMAIL_DOMAIN;
      const now = deps.clock.now();
      return deps.db.transaction(async (trx) => {
        // Two seed runs at once must not both find "no test pilots" and create two sets.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['auth.seed-demo']);
        const existing = await deps.repos.pilots.list({ testData: true }, trx);
        if (existing.length > 0) return { created: 0, pilots: existing.map(toPilot) };
        const taken = new Set((await deps.repos.pilots.list({}, trx)).flatMap((pilot) => [pilot.employeeId, pilot.email]));
        const pilots: Pilot[] = [];
        for (let i = 0; i < count; i++) {
          const firstName = FIRST_NAMES[i % FIRST_NAMES.length]!;
          const lastName = LAST_NAMES[(i * 7 + Math.floor(i / FIRST_NAMES.length)) % LAST_NAMES.length]!;
          let employeeId: string;
          do employeeId = String(randomInt(100_000, 1_000_000));
          while (taken.has(employeeId));
          let email = `${firstName}.${lastName}@${domain}`.toLowerCase();
          for (let n = 2; taken.has(email); n++) email = `${firstName}.${lastName}${n}@${domain}`.toLowerCase();
          taken.add(employeeId).add(email);
          const rank = i % 2 === 0 ? 'CP' : 'FO';
          const record = await deps.repos.pilots.insert(
            {
              id: randomUUID(),
              employeeId,
              firstName,
              lastName,
              email,
              phone: `+4477009${String(randomInt(0, 1_000_000)).padStart(6, '0')}`,
              rank,
              fleet: FLEETS[Math.floor(i / 2) % FLEETS.length]!,
              base: BASES[Math.floor(i / 8) % BASES.length]!,
              apic: rank === 'CP' || i % 3 === 0,
              ltc: rank === 'CP' && i % 6 === 0,
              usualReq: true,
              ...NEW_PILOT_DEFAULTS,
              testData: true,
              emailVerified: true,
              passwordHash,
              createdAt: now,
            },
            trx,
          );
          await publishProfile(deps.outbox, trx, SUBJECTS.pilotRegistered, record);
          pilots.push(toPilot(record));
        }
        return { created: pilots.length, pilots };
      });
    },
  };
}
