import { z } from 'zod';
import { Base, Fleet, IsoDate, Rank } from './common';
import { MIN_PASSWORD_LENGTH } from './auth';
import { Pilot } from './pilot';

/**
 * Pilot management in the admin console (served by auth). `tripCount` is null when the trips
 * service could not be asked; the list then says so with `tripCountsAvailable: false`.
 */
export const AdminPilot = Pilot.extend({ tripCount: z.number().int().min(0).nullable() });
export type AdminPilot = z.infer<typeof AdminPilot>;

export const AdminPilotsQuery = z.strictObject({
  fleet: Fleet.optional(),
  rank: Rank.optional(),
  data: z.enum(['real', 'test']).optional(),
  masterRoster: z.enum(['on', 'off']).optional(),
  trips: z.enum(['zero', 'has']).optional(),
  search: z.string().trim().max(100).optional(),
});
export type AdminPilotsQuery = z.infer<typeof AdminPilotsQuery>;

export const AdminPilotList = z.object({
  pilots: z.array(AdminPilot),
  /** Every pilot, before filters: 'Showing X of Y pilots'. */
  total: z.number().int(),
  tripCountsAvailable: z.boolean(),
});
export type AdminPilotList = z.infer<typeof AdminPilotList>;

/**
 * What an admin may change. Blank required fields are let through the schema so the server can
 * answer the spec's 'Please fill in all required fields.'; absent fields keep their value.
 */
export const AdminUpdatePilotBody = z.strictObject({
  employeeId: z.string().max(20).optional(),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  email: z.string().max(200).optional(),
  phone: z.string().max(30).optional(),
  rank: z.union([Rank, z.literal('')]).optional(),
  fleet: z.union([Fleet, z.literal('')]).optional(),
  base: z.union([Base, z.literal('')]).optional(),
  apic: z.boolean().optional(),
  ltc: z.boolean().optional(),
  usualReq: z.boolean().optional(),
  allVisible: z.boolean().optional(),
  testData: z.boolean().optional(),
  emailVerified: z.boolean().optional(),
  searchDayRange: z.number().int().min(0).max(30).nullable().optional(),
});
export type AdminUpdatePilotBody = z.infer<typeof AdminUpdatePilotBody>;

export const AdminPilotPasswordBody = z.strictObject({
  password: z.string().max(200).default(''),
  /** The console's second field; checked when sent. */
  confirmPassword: z.string().max(200).optional(),
});
export type AdminPilotPasswordBody = z.input<typeof AdminPilotPasswordBody>;
export const AdminPilotPasswordReply = z.object({ temporaryPassword: z.string().min(MIN_PASSWORD_LENGTH) });
export type AdminPilotPasswordReply = z.infer<typeof AdminPilotPasswordReply>;

export const ActivePilotSession = z.object({
  id: z.uuid(),
  rank: Rank,
  firstName: z.string(),
  lastName: z.string(),
  employeeId: z.string(),
  fleet: Fleet,
  loginTime: z.string(),
  lastActivity: z.string(),
});
export const ActiveSessions = z.object({
  activeCount: z.number().int(),
  uniquePilots: z.number().int(),
  activePilots: z.array(ActivePilotSession),
});
export type ActiveSessions = z.infer<typeof ActiveSessions>;

export const LoginHistoryEntry = z.object({
  pilotRank: Rank,
  pilotName: z.string(),
  employeeId: z.string(),
  loginTime: z.string(),
  logoutTime: z.string().nullable(),
  /** Whole minutes from login to logout, or to now while the session is open. */
  duration: z.number().int().min(0),
  isActive: z.boolean(),
});
export const SessionHistory = z.object({ recentLogins: z.array(LoginHistoryEntry) });
export type SessionHistory = z.infer<typeof SessionHistory>;

export const RecentRegistration = z.object({
  pilotName: z.string(),
  pilotRank: Rank,
  fleet: Fleet,
  employeeId: z.string(),
  masterRosterEnabled: z.boolean(),
  registrationDate: IsoDate,
});
export const RecentRegistrations = z.object({ recentRegistrations: z.array(RecentRegistration) });
export type RecentRegistrations = z.infer<typeof RecentRegistrations>;

/** A self-deleted pilot in the 30-day cooling-off period (admin Data Cleanup). */
export const DeletedPilotRecord = z.object({
  id: z.uuid(),
  rank: Rank,
  firstName: z.string(),
  lastName: z.string(),
  fleet: Fleet,
  employeeId: z.string(),
  deletionDate: IsoDate,
  daysSinceDeletion: z.number().int().min(0),
  /** Past the cooling-off period: may be removed permanently. */
  canRemove: z.boolean(),
});
export const DeletedPilotList = z.object({ deletedPilots: z.array(DeletedPilotRecord) });
export type DeletedPilotList = z.infer<typeof DeletedPilotList>;
