import { randomUUID } from 'node:crypto';
import { badRequest, conflict } from '@crewswap/kit';
import { addDays, MIN_PASSWORD_LENGTH, PHONE_PLUS_ZERO_MESSAGE, shapeEmailPrefix, shapeName, shapePhone, SUBJECTS, RegisterBody, type RegisterResponse } from '@crewswap/proto';
import { z } from 'zod';
import { isUniqueViolation, NEW_PILOT_DEFAULTS, toPilot } from '../data/pilots';
import { COOLING_OFF_DAYS, coolingOffDaysLeft } from './deleted-profiles';
import { publishProfile, type AuthDeps } from './deps';
import { assertNotShutdown } from './login';
import type { VerificationCodes } from './verification-codes';

const EMAIL_PREFIX = /^[a-z0-9._%+-]+$/;

const failed = (message: string) => conflict(message, { title: 'Registration Failed' });

/** The registration body as parsed (defaults applied). */
export type Registration = z.output<typeof RegisterBody>;

/** A full address sent with (or instead of) the prefix: at the company domain, agreeing with the prefix. */
function checkFullEmail(fullEmail: string, prefix: string, domain: string): void {
  const at = fullEmail.lastIndexOf('@');
  if (at < 0 || fullEmail.slice(at + 1).toLowerCase() !== domain.toLowerCase()) {
    throw badRequest(`Please register with your company email address, ending @${domain}.`, { title: 'Invalid Email Format' });
  }
  if (shapeEmailPrefix(fullEmail.slice(0, at)) !== prefix) {
    throw badRequest('The email address and the email prefix do not match.', { title: 'Invalid Email Format' });
  }
}

/** The spec's seven registration checks, in the spec's order, then uniqueness. */
export function createRegister(deps: Pick<AuthDeps, 'config' | 'db' | 'repos' | 'clock' | 'settings' | 'passwords' | 'outbox'> & { codes: VerificationCodes }) {
  const domain = deps.config.COMPANY_EMAIL_DOMAIN;
  return {
    async execute(body: Registration): Promise<RegisterResponse> {
      // An emergency shutdown blocks pilots from getting in, new ones included.
      await assertNotShutdown(deps.repos.system);
      const phone = shapePhone(body.phone);
      if (phone.startsWith('+0')) throw badRequest(PHONE_PLUS_ZERO_MESSAGE, { title: 'Invalid Phone Number' });
      const employeeId = body.employeeId.trim();
      if (!/^\d{6}$/.test(employeeId)) throw badRequest('Employee ID must be exactly 6 digits.', { title: 'Invalid Employee ID' });
      if (body.password.length < MIN_PASSWORD_LENGTH) {
        throw badRequest('Password must be at least 6 characters long.', { title: 'Password Too Short' });
      }
      if (body.password !== body.confirmPassword) throw badRequest('Passwords do not match.', { title: 'Password Mismatch' });
      if (body.rank === 'CP' && !body.apic) {
        throw badRequest('Captains must have APIC (Approved Pilot in Command) certification.', { title: 'APIC Required' });
      }
      const firstName = shapeName(body.firstName);
      const lastName = shapeName(body.lastName);
      const fullEmail = body.email?.trim() ?? '';
      // The prefix as typed, or else the part of the full address before its domain.
      const typedPrefix = body.emailPrefix.trim() || fullEmail.replace(/@[^@]*$/, '');
      const prefix = shapeEmailPrefix(typedPrefix);
      const { rank, fleet, base } = body;
      if (!firstName || !lastName || !prefix || !/\d/.test(phone) || !rank || !fleet || !base) {
        throw badRequest('Please fill in all required fields.', { title: 'Missing Information' });
      }
      if (/\s/.test(typedPrefix)) throw badRequest('Email prefix cannot contain spaces.', { title: 'Invalid Email Format' });
      if (fullEmail) checkFullEmail(fullEmail, prefix, domain);
      const email = `${prefix}@${domain}`;
      if (!EMAIL_PREFIX.test(prefix) || !z.email().safeParse(email).success) {
        throw badRequest('Email prefix can only contain letters, numbers, dots, hyphens and underscores.', { title: 'Invalid Email Format' });
      }

      const { pilots, deleted } = deps.repos;
      if (await pilots.byEmployeeId(employeeId)) throw failed('A pilot with this employee ID is already registered.');
      if (await pilots.byEmail(email)) throw failed('A pilot with this email address is already registered.');
      const previous = await deleted.latestByEmployeeId(employeeId);
      if (previous && coolingOffDaysLeft(previous, deps.clock.today()) > 0) {
        const until = addDays(previous.deletedOn, COOLING_OFF_DAYS);
        throw conflict(
          `A profile with this employee ID was deleted on ${previous.deletedOn}. You can restore it (Restore Previous Account), or register again from ${until}.`,
          { title: 'Registration Failed', extra: { previouslyDeleted: true } },
        );
      }

      const verify = (await deps.settings.get('email_verification_enabled')) !== 'false';
      const passwordHash = await deps.passwords.hash(body.password);
      const now = deps.clock.now();
      try {
        const record = await deps.db.transaction(async (trx) => {
          const created = await pilots.insert(
            {
              id: randomUUID(),
              employeeId,
              firstName,
              lastName,
              email,
              phone,
              rank,
              fleet,
              base,
              // CP is always APIC; only CP may be LTC.
              apic: rank === 'CP' ? true : body.apic,
              ltc: rank === 'CP' && body.ltc,
              usualReq: body.usualReq,
              ...NEW_PILOT_DEFAULTS,
              testData: false,
              emailVerified: !verify,
              passwordHash,
              createdAt: now,
            },
            trx,
          );
          if (verify) await deps.codes.send(trx, created);
          await publishProfile(deps.outbox, trx, SUBJECTS.pilotRegistered, created);
          return created;
        });
        return { pilot: toPilot(record), emailVerificationRequired: verify };
      } catch (error) {
        // Two registrations raced past the checks above; the unique indexes decide.
        if (isUniqueViolation(error, 'employee_id')) throw failed('A pilot with this employee ID is already registered.');
        if (isUniqueViolation(error, 'email')) throw failed('A pilot with this email address is already registered.');
        throw error;
      }
    },
  };
}
