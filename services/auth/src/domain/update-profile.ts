import { badRequest, forbidden, notFound } from '@crewswap/kit';
import { addYears, daysBetween, PHONE_PLUS_ZERO_MESSAGE, shapeName, shapePhone, SUBJECTS, type MasterRosterCooldown, type Pilot, type UpdatePilotBody } from '@crewswap/proto';
import { toPilot, type PilotRecord, type ProfileChanges } from '../data/pilots';
import { publishProfile, type AuthDeps } from './deps';

export const MASTER_ROSTER_COOLDOWN_DAYS = 30;
const updateFailed = (message: string) => badRequest(message, { title: 'Update Failed' });

export function masterRosterCooldown(pilot: Pick<Pilot, 'usualReq' | 'usualReqOff'>, today: string): MasterRosterCooldown {
  if (pilot.usualReq || !pilot.usualReqOff) return { canEnable: true, daysRemaining: 0 };
  const daysRemaining = Math.max(0, MASTER_ROSTER_COOLDOWN_DAYS - daysBetween(pilot.usualReqOff, today));
  return { canEnable: daysRemaining === 0, daysRemaining };
}

/** Rank, fleet and LTC may change once a year: the date of the last change locks the next. */
function assertUnlocked(what: string, lastChanged: string | null, today: string): void {
  if (!lastChanged) return;
  const unlocksOn = addYears(lastChanged, 1);
  if (today < unlocksOn) {
    throw forbidden(`Your ${what} was changed on ${lastChanged} and can only be changed once a year. You can change it again from ${unlocksOn}.`, {
      title: 'Update Failed',
      extra: { unlocksOn },
    });
  }
}

/** Keeps only what differs from the pilot as stored. */
function differences(current: PilotRecord, changes: ProfileChanges): ProfileChanges {
  const diff: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined && value !== current[key as keyof PilotRecord]) diff[key] = value;
  }
  return diff as ProfileChanges;
}

/** A pilot's own profile edit with the spec's rules, locks and cooldown. */
export function createUpdateProfile(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'outbox'>) {
  return {
    async execute(input: { pilotId: string; body: UpdatePilotBody }): Promise<Pilot> {
      const { body } = input;
      const today = deps.clock.today();
      return deps.db.transaction(async (trx) => {
        const current = await deps.repos.pilots.byId(input.pilotId, trx, { forUpdate: true });
        if (!current) throw notFound('Pilot not found.');
        const changes: ProfileChanges = {};

        if (body.employeeId !== undefined && body.employeeId.trim() !== current.employeeId) {
          throw updateFailed('Your employee ID cannot be changed. Please contact an administrator.');
        }
        if (body.phone !== undefined) {
          const phone = shapePhone(body.phone);
          if (phone.startsWith('+0')) throw badRequest(PHONE_PLUS_ZERO_MESSAGE, { title: 'Invalid Phone Number' });
          if (!/\d/.test(phone)) throw badRequest('Please enter your phone number.', { title: 'Missing Information' });
          changes.phone = phone;
        }
        for (const field of ['firstName', 'lastName'] as const) {
          if (body[field] === undefined) continue;
          const name = shapeName(body[field]);
          if (!name) throw badRequest('First name and last name are required.', { title: 'Missing Information' });
          changes[field] = name;
        }

        const rank = body.rank ?? current.rank;
        if (rank !== current.rank) {
          assertUnlocked('rank', current.rankLastChanged, today);
          changes.rank = rank;
          changes.rankLastChanged = today;
        }
        if (body.fleet !== undefined && body.fleet !== current.fleet) {
          assertUnlocked('fleet', current.fleetLastChanged, today);
          changes.fleet = body.fleet;
          changes.fleetLastChanged = today;
        }
        if (rank === 'FO' && body.ltc === true) throw updateFailed('Only captains (CP) can be LTC trainers.');
        // A captain becoming FO stops being LTC; that follows the rank change (and its lock).
        const ltc = rank === 'CP' ? (body.ltc ?? current.ltc) : false;
        if (ltc !== current.ltc) {
          if (rank === current.rank) {
            assertUnlocked('LTC status', current.ltcLastChanged, today);
            changes.ltcLastChanged = today;
          }
          changes.ltc = ltc;
        }
        // CP is always APIC; an FO sets it.
        changes.apic = rank === 'CP' ? true : (body.apic ?? current.apic);

        if (body.usualReq !== undefined && body.usualReq !== current.usualReq) {
          if (body.usualReq) {
            const cooldown = masterRosterCooldown(current, today);
            if (!cooldown.canEnable) {
              throw forbidden(
                `You have ${cooldown.daysRemaining} days remaining before you can turn Master Roster back on. This cooldown stops the setting being switched off and on to game the system.`,
                { title: 'Cooldown Active', extra: { daysRemaining: cooldown.daysRemaining } },
              );
            }
            changes.usualReqOff = null;
          } else {
            changes.usualReqOff = today;
          }
          changes.usualReq = body.usualReq;
        }
        changes.base = body.base;
        changes.allVisible = body.allVisible;
        changes.searchDayRange = body.searchDayRange;

        const diff = differences(current, changes);
        if (Object.keys(diff).length === 0) return toPilot(current);
        const updated = await deps.repos.pilots.update(current.id, diff, trx, deps.clock.now());
        await publishProfile(deps.outbox, trx, SUBJECTS.pilotUpdated, updated);
        return toPilot(updated);
      });
    },
  };
}
