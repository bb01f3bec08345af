import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound, tooMany, type Executor } from '@crewswap/kit';
import {
  addDays,
  daysBetween,
  MIN_PASSWORD_LENGTH,
  PHONE_PLUS_ZERO_MESSAGE,
  shapeEmailPrefix,
  shapeName,
  shapePhone,
  SUBJECTS,
  type DeletedPilotLookup,
  type MessageResponse,
  RegisterBody,
  type RegisterResponse,
  type RestorePilotBody,
} from '@crewswap/proto';
import { z } from 'zod';
import type { DeletedPilot } from '../data/deleted-pilots';
import { isUniqueViolation, NEW_PILOT_DEFAULTS, toPilot, type PilotRecord } from '../data/pilots';
import { normaliseEmail, publishProfile, type AuthContext } from './context';
import { mailVerificationCode } from './mail';
import { sameSecret, sha256, verificationCode } from './passwords';

export const COOLING_OFF_DAYS = 30;
const CODE_LIFETIME_MS = 24 * 3600_000;
const VERIFY_WINDOW_MS = 15 * 60_000;
const MAX_WRONG_CODES = 5;
const RESEND_INTERVAL_MS = 60_000;
const EMAIL_PREFIX = /^[a-z0-9._%+-]+$/;

const failed = (message: string) => conflict(message, { title: 'Registration Failed' });

/** The registration body as parsed (defaults applied). */
export type Registration = z.output<typeof RegisterBody>;

/** The spec's seven registration checks, in the spec's order, then uniqueness. */
export async function register(ctx: AuthContext, body: Registration): Promise<RegisterResponse> {
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
  if (fullEmail) checkFullEmail(fullEmail, prefix, ctx.config.COMPANY_EMAIL_DOMAIN);
  const email = `${prefix}@${ctx.config.COMPANY_EMAIL_DOMAIN}`;
  if (!EMAIL_PREFIX.test(prefix) || !z.email().safeParse(email).success) {
    throw badRequest('Email prefix can only contain letters, numbers, dots, hyphens and underscores.', { title: 'Invalid Email Format' });
  }

  const { pilots, deleted } = ctx.repos;
  if (await pilots.byEmployeeId(employeeId)) throw failed('A pilot with this employee ID is already registered.');
  if (await pilots.byEmail(email)) throw failed('A pilot with this email address is already registered.');
  const previous = await deleted.latestByEmployeeId(employeeId);
  if (previous && coolingOffDaysLeft(previous, ctx.clock.today()) > 0) {
    const until = addDays(previous.deletedOn, COOLING_OFF_DAYS);
    throw conflict(
      `A profile with this employee ID was deleted on ${previous.deletedOn}. You can restore it (Restore Previous Account), or register again from ${until}.`,
      { title: 'Registration Failed', extra: { previouslyDeleted: true } },
    );
  }

  const verify = (await ctx.settings.get('email_verification_enabled')) !== 'false';
  const passwordHash = await ctx.passwords.hash(body.password);
  const now = ctx.clock.now();
  try {
    const record = await ctx.db.transaction(async (trx) => {
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
      if (verify) await sendVerificationCode(ctx, trx, created);
      await publishProfile(ctx, trx, SUBJECTS.pilotRegistered, created);
      return created;
    });
    return { pilot: toPilot(record), emailVerificationRequired: verify };
  } catch (error) {
    // Two registrations raced past the checks above; the unique indexes decide.
    if (isUniqueViolation(error, 'employee_id')) throw failed('A pilot with this employee ID is already registered.');
    if (isUniqueViolation(error, 'email')) throw failed('A pilot with this email address is already registered.');
    throw error;
  }
}

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

export async function sendVerificationCode(ctx: AuthContext, trx: Executor, pilot: PilotRecord): Promise<void> {
  const code = verificationCode();
  const now = ctx.clock.now();
  await ctx.repos.verification.save(
    { pilotId: pilot.id, codeHash: sha256(code), sentAt: now, expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS) },
    trx,
  );
  await mailVerificationCode(ctx, trx, pilot, code);
}

/** Sends a code if the pilot has none that still works (e.g. after an unverified login). */
export async function ensureVerificationCode(ctx: AuthContext, pilot: PilotRecord): Promise<void> {
  const current = await ctx.repos.verification.get(pilot.id);
  if (current && current.expiresAt > ctx.clock.now()) return;
  await ctx.db.transaction((trx) => sendVerificationCode(ctx, trx, pilot));
}

/** Accepts the mailed code or the current daily access code; more than 5 wrong in 15 minutes is 429. */
export async function verifyEmail(ctx: AuthContext, rawEmail: string, code: string): Promise<MessageResponse> {
  const email = normaliseEmail(rawEmail);
  const now = ctx.clock.now();
  const { verification, pilots } = ctx.repos;
  if ((await verification.failuresSince(email, new Date(now.getTime() - VERIFY_WINDOW_MS))) >= MAX_WRONG_CODES) {
    throw tooMany('Too many incorrect codes. Please wait 15 minutes and try again.', { title: 'Too Many Attempts' });
  }
  const pilot = await pilots.byEmail(email);
  let valid = false;
  if (pilot) {
    const stored = await verification.get(pilot.id);
    valid = stored !== undefined && stored.expiresAt > now && sameSecret(sha256(code), stored.codeHash);
    const daily = (await ctx.settings.get('daily_access_code')).replace(/\s/g, '');
    if (!valid && daily) valid = sameSecret(code, daily);
  }
  if (!pilot || !valid) {
    await verification.recordFailure(email, now);
    throw badRequest('The verification code is incorrect or has expired. Please check the code from your email.', {
      title: 'Verification Failed',
    });
  }
  await ctx.db.transaction(async (trx) => {
    await verification.remove(pilot.id, trx);
    if (pilot.emailVerified) return;
    const updated = await pilots.update(pilot.id, { emailVerified: true }, trx, now);
    await publishProfile(ctx, trx, SUBJECTS.pilotUpdated, updated);
  });
  return { message: 'Your email address is verified. You can now log in.' };
}

export const RESEND_MESSAGE = 'If this email address is registered and not yet verified, a new verification code has been sent to it.';

/**
 * Mails a new code to a registered, unverified address, and answers the same whether or not the
 * address is registered. At most one mail a minute, so the form cannot flood a pilot's inbox; a
 * request inside that minute is refused with the seconds left (429), never answered as if a mail
 * had left.
 */
export async function resendVerification(ctx: AuthContext, email: string): Promise<MessageResponse> {
  const pilot = await ctx.repos.pilots.byEmail(normaliseEmail(email));
  if (pilot && !pilot.emailVerified) {
    const current = await ctx.repos.verification.get(pilot.id);
    const waitMs = current ? current.sentAt.getTime() + RESEND_INTERVAL_MS - ctx.clock.now().getTime() : 0;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw tooMany(`A verification code was sent less than a minute ago. Please wait ${seconds} seconds before asking for another.`, {
        title: 'Please Wait',
        extra: { retryAfterSeconds: seconds },
      });
    }
    await ctx.db.transaction((trx) => sendVerificationCode(ctx, trx, pilot));
  }
  return { message: RESEND_MESSAGE };
}

function coolingOffDaysLeft(record: DeletedPilot, today: string): number {
  return Math.max(0, COOLING_OFF_DAYS - daysBetween(record.deletedOn, today));
}

async function restorable(ctx: AuthContext, employeeId: string): Promise<(DeletedPilot & { daysRemaining: number }) | undefined> {
  if (!/^\d{6}$/.test(employeeId)) return undefined;
  const record = await ctx.repos.deleted.latestByEmployeeId(employeeId);
  if (!record) return undefined;
  const daysRemaining = coolingOffDaysLeft(record, ctx.clock.today());
  return daysRemaining > 0 ? { ...record, daysRemaining } : undefined;
}

export async function lookupDeletedPilot(ctx: AuthContext, employeeId: string): Promise<DeletedPilotLookup> {
  const record = await restorable(ctx, employeeId.trim());
  if (!record) return { exists: false };
  const { firstName, lastName, email, rank, fleet, daysRemaining } = record;
  return { exists: true, pilot: { firstName, lastName, employeeId: record.employeeId, email, rank, fleet, daysRemaining } };
}

/**
 * Brings a self-deleted profile back within its cooling-off period: rank, fleet and change locks
 * as they were; only the password is new, and the email must be verified again.
 */
export async function restorePilot(ctx: AuthContext, body: RestorePilotBody): Promise<RegisterResponse> {
  const record = await restorable(ctx, body.employeeId);
  if (!record) {
    throw notFound('No deleted profile was found for this employee ID, or its 30-day restore period has ended.', { title: 'Restore Failed' });
  }
  const passwordHash = await ctx.passwords.hash(body.updatedData.password);
  const { pilots, deleted } = ctx.repos;
  const restoreFailed = () =>
    conflict('Another profile now uses this employee ID or email address. Please contact an administrator.', { title: 'Restore Failed' });
  if ((await pilots.byEmployeeId(record.employeeId)) || (await pilots.byEmail(record.profile.email))) throw restoreFailed();
  try {
    const restored = await ctx.db.transaction(async (trx) => {
      const { createdAt, ...profile } = record.profile;
      const created = await pilots.insert({ ...profile, emailVerified: false, passwordHash, createdAt: new Date(createdAt) }, trx);
      await deleted.remove(record.id, trx);
      await sendVerificationCode(ctx, trx, created);
      await publishProfile(ctx, trx, SUBJECTS.pilotRegistered, created);
      return created;
    });
    return { pilot: toPilot(restored), emailVerificationRequired: true };
  } catch (error) {
    if (isUniqueViolation(error)) throw restoreFailed();
    throw error;
  }
}
