import { badRequest, conflict, notFound, requestRpc, unavailable } from '@crewswap/kit';
import {
  addDays,
  ADMIN_PHONE_PLUS_ZERO_MESSAGE,
  daysBetween,
  londonToday,
  MIN_PASSWORD_LENGTH,
  RPC,
  shapeName,
  shapePhone,
  SUBJECTS,
  TripCountsReply,
  type ActiveSessions,
  type AdminPilotList,
  type AdminPilotPasswordReply,
  type AdminPilotsQuery,
  type AdminUpdatePilotBody,
  type DeletedPilotList,
  type Pilot,
  type RecentRegistrations,
  type SessionHistory,
} from '@crewswap/proto';
import { z } from 'zod';
import { isUniqueViolation, toPilot, type ProfileChanges } from '../data/pilots';
import { publishProfile, type AuthContext } from './context';
import { COOLING_OFF_DAYS } from './registration';
import { activeSince, endPilotSessions } from './sessions';

const TRIP_COUNTS_TIMEOUT_MS = 1500;
const REQUIRED = 'Please fill in all required fields.';

/**
 * The pilots list with trip counts from trips. If trips does not answer, counts are null and the
 * list says so; only the trips filter, which needs them, is refused (503).
 */
export async function listPilots(ctx: AuthContext, query: AdminPilotsQuery): Promise<AdminPilotList> {
  const pilots = await ctx.repos.pilots.list({
    fleet: query.fleet,
    rank: query.rank,
    testData: query.data === undefined ? undefined : query.data === 'test',
    usualReq: query.masterRoster === undefined ? undefined : query.masterRoster === 'on',
    search: query.search || undefined,
  });
  let counts: Record<string, number> | undefined;
  if (pilots.length > 0) {
    try {
      const reply = await requestRpc(ctx.bus, RPC.tripCounts, { pilotIds: pilots.map((p) => p.id) }, TripCountsReply, TRIP_COUNTS_TIMEOUT_MS);
      counts = reply.counts;
    } catch (error) {
      ctx.log.warn({ err: error }, 'trip counts unavailable');
      if (query.trips) {
        throw unavailable('Trip counts are unavailable because the trips service is not answering. Please try again shortly, or clear the trips filter.');
      }
    }
  } else {
    counts = {};
  }
  const listed = pilots
    .map((pilot) => ({ ...toPilot(pilot), tripCount: counts ? (counts[pilot.id] ?? 0) : null }))
    .filter((pilot) => !query.trips || (query.trips === 'zero' ? pilot.tripCount === 0 : (pilot.tripCount ?? 0) > 0));
  return { pilots: listed, total: await ctx.repos.pilots.count(), tripCountsAvailable: counts !== undefined };
}

const blank = (value: string | undefined) => value !== undefined && !value.trim();
const shaped = (value: string | undefined, shape: (raw: string) => string) => (value === undefined ? undefined : shape(value));

/**
 * An admin's edit: the admin spec's validation, no locks or cooldowns, and the tracking fields
 * reset so the pilot may change the same thing again.
 */
export async function adminUpdatePilot(ctx: AuthContext, pilotId: string, body: AdminUpdatePilotBody): Promise<Pilot> {
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
    return await ctx.db.transaction(async (trx) => {
      const current = await ctx.repos.pilots.byId(pilotId, trx, { forUpdate: true });
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
      const updated = await ctx.repos.pilots.update(current.id, diff, trx, ctx.clock.now());
      if (diff.emailVerified) await ctx.repos.verification.remove(current.id, trx);
      await publishProfile(ctx, trx, SUBJECTS.pilotUpdated, updated);
      return toPilot(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'employee_id')) throw conflict('Another pilot already has this employee ID.');
    if (isUniqueViolation(error, 'email')) throw conflict('Another pilot already uses this email address.');
    throw error;
  }
}

/** The admin sets a temporary password; the pilot must change it at the next login. */
export async function adminSetPassword(
  ctx: AuthContext,
  pilotId: string,
  body: { password: string; confirmPassword?: string | undefined },
): Promise<AdminPilotPasswordReply> {
  if (!body.password || body.confirmPassword === '') throw badRequest('Please fill in both password fields.');
  if (body.confirmPassword !== undefined && body.confirmPassword !== body.password) {
    throw badRequest('The passwords do not match. Please try again.');
  }
  if (body.password.length < MIN_PASSWORD_LENGTH) throw badRequest('Password must be at least 6 characters long.');
  const passwordHash = await ctx.passwords.hash(body.password);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (trx) => {
    const pilot = await ctx.repos.pilots.byId(pilotId, trx, { forUpdate: true });
    if (!pilot) throw notFound('Pilot not found.');
    await ctx.repos.pilots.setPassword(pilot.id, { passwordHash, forcePasswordChange: true, passwordResetAt: now }, trx, now);
    await endPilotSessions(ctx, trx, pilot.id, 'password_reset');
  });
  return { temporaryPassword: body.password };
}

export async function activeSessions(ctx: AuthContext): Promise<ActiveSessions> {
  const sessions = await ctx.repos.sessions.active(await activeSince(ctx));
  return {
    activeCount: sessions.length,
    uniquePilots: new Set(sessions.map((session) => session.pilotId)).size,
    activePilots: sessions.map((session) => ({
      id: session.pilotId,
      rank: session.rank,
      firstName: session.firstName,
      lastName: session.lastName,
      employeeId: session.employeeId,
      fleet: session.fleet,
      loginTime: session.loginAt.toISOString(),
      lastActivity: session.lastActivityAt.toISOString(),
    })),
  };
}

export async function sessionHistory(ctx: AuthContext): Promise<SessionHistory> {
  const since = await activeSince(ctx);
  const now = ctx.clock.now().getTime();
  const sessions = await ctx.repos.sessions.recent(20);
  return {
    recentLogins: sessions.map((session) => ({
      pilotRank: session.rank,
      pilotName: `${session.firstName} ${session.lastName}`,
      employeeId: session.employeeId,
      loginTime: session.loginAt.toISOString(),
      logoutTime: session.logoutAt?.toISOString() ?? null,
      duration: Math.max(0, Math.floor(((session.logoutAt?.getTime() ?? now) - session.loginAt.getTime()) / 60_000)),
      isActive: session.logoutAt === null && session.lastActivityAt >= since,
    })),
  };
}

export async function recentRegistrations(ctx: AuthContext): Promise<RecentRegistrations> {
  const pilots = await ctx.repos.pilots.recent(50);
  return {
    recentRegistrations: pilots.map((pilot) => ({
      pilotName: `${pilot.firstName} ${pilot.lastName}`,
      pilotRank: pilot.rank,
      fleet: pilot.fleet,
      employeeId: pilot.employeeId,
      masterRosterEnabled: pilot.usualReq,
      registrationDate: londonToday(new Date(pilot.createdAt)),
    })),
  };
}

export async function listDeletedPilots(ctx: AuthContext): Promise<DeletedPilotList> {
  const today = ctx.clock.today();
  const records = await ctx.repos.deleted.list();
  return {
    deletedPilots: records.map((record) => {
      const daysSinceDeletion = Math.max(0, daysBetween(record.deletedOn, today));
      return {
        id: record.id,
        rank: record.rank,
        firstName: record.firstName,
        lastName: record.lastName,
        fleet: record.fleet,
        employeeId: record.employeeId,
        deletionDate: record.deletedOn,
        daysSinceDeletion,
        canRemove: daysSinceDeletion >= COOLING_OFF_DAYS,
      };
    }),
  };
}

/** Only past the cooling-off period: until then the pilot may still restore the profile. */
export async function removeDeletedPilot(ctx: AuthContext, id: string): Promise<void> {
  const record = await ctx.repos.deleted.byId(id);
  if (!record) throw notFound('No deleted pilot with this id.');
  if (daysBetween(record.deletedOn, ctx.clock.today()) < COOLING_OFF_DAYS) {
    throw conflict(
      `This pilot was deleted on ${record.deletedOn} and is in the 30-day cooling-off period. It can be removed permanently from ${addDays(record.deletedOn, COOLING_OFF_DAYS)}.`,
    );
  }
  await ctx.repos.deleted.remove(id);
}
