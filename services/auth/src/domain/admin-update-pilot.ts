import { badRequest, conflict, notFound } from '@crewswap/kit';
import { ADMIN_PHONE_PLUS_ZERO_MESSAGE, shapeName, shapePhone, SUBJECTS, type AdminUpdatePilotBody, type Pilot } from '@crewswap/proto';
import { z } from 'zod';
import { isUniqueViolation, toPilot, type ProfileChanges } from '../data/pilots';
import { publishProfile, type AuthDeps } from './deps';

const REQUIRED = 'Please fill in all required fields.';
const blank = (value: string | undefined) => value !== undefined && !value.trim();
const shaped = (value: string | undefined, shape: (raw: string) => string) => (value === undefined ? undefined : shape(value));

/**
 * An admin's edit: the admin spec's validation, no locks or cooldowns, and the tracking fields
 * reset so the pilot may change the same thing again.
 */
export function createAdminUpdatePilot(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'outbox'>) {
  const { repos } = deps;
  return {
    async execute(input: { pilotId: string; body: AdminUpdatePilotBody }): Promise<Pilot> {
      const { body } = input;
      if ([body.employeeId, body.firstName, body.lastName, body.email, body.phone, body.rank, body.fleet, body.base].some(blank)) {
        throw badRequest(REQUIRED);
      }
      const employeeId = body.employeeId?.trim();
      const email = body.email?.trim().toLowerCase();
      const phone = shaped(body.phone, shapePhone);
      const firstName = shaped(body.firstName, shapeName);
      const lastName = shaped(body.lastName, shapeName);
      if (firstName === '' || lastName === '' || (phone !== undefined && !/\d/.test(phone))) throw badRequest(REQUIRED);
      if (phone?.startsWith('+0')) throw badRequest(ADMIN_PHONE_PLUS_ZERO_MESSAGE, { title: 'Invalid Phone Number' });
      if (employeeId !== undefined && !/^\d{6}$/.test(employeeId)) {
        throw badRequest('Employee ID must be exactly 6 digits.', { title: 'Invalid Employee ID' });
      }
      if (email !== undefined && !z.email().safeParse(email).success) throw badRequest('Please enter a valid email address');

      try {
        return await deps.db.transaction(async (trx) => {
          const current = await repos.pilots.byId(input.pilotId, trx, { forUpdate: true });
          if (!current) throw notFound('Pilot not found.');
          const rank = body.rank || current.rank;
          const fleet = body.fleet || current.fleet;
          const changes: ProfileChanges = {
            employeeId,
            email,
            phone,
            firstName,
            lastName,
            rank,
            fleet,
            base: body.base || undefined,
            apic: rank === 'CP' ? true : (body.apic ?? current.apic),
            ltc: rank === 'CP' ? (body.ltc ?? current.ltc) : false,
            usualReq: body.usualReq,
            allVisible: body.allVisible,
            testData: body.testData,
            emailVerified: body.emailVerified,
            searchDayRange: body.searchDayRange,
          };
          const rankChanged = rank !== current.rank;
          if (rankChanged) {
            changes.rankLastChanged = null;
            changes.ltcLastChanged = null;
          }
          if (fleet !== current.fleet) changes.fleetLastChanged = null;
          if (!rankChanged && changes.ltc !== current.ltc) changes.ltcLastChanged = null;
          if (body.usualReq !== undefined && body.usualReq !== current.usualReq) changes.usualReqOff = null;

          const diff = Object.fromEntries(
            Object.entries(changes).filter(([key, value]) => value !== undefined && value !== current[key as keyof typeof current]),
          ) as ProfileChanges;
          if (Object.keys(diff).length === 0) return toPilot(current);
          const updated = await repos.pilots.update(current.id, diff, trx, deps.clock.now());
          if (diff.emailVerified) await repos.verification.remove(current.id, trx);
          await publishProfile(deps.outbox, trx, SUBJECTS.pilotUpdated, updated);
          return toPilot(updated);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'employee_id')) throw conflict('Another pilot already has this employee ID.');
        if (isUniqueViolation(error, 'email')) throw conflict('Another pilot already uses this email address.');
        throw error;
      }
    },
  };
}
