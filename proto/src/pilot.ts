import { z } from 'zod';
import { Base, Fleet, IsoDate, Rank } from './common';

/** The pilot as the pilot (and other services' directories) see it. Never carries credentials. */
export const Pilot = z.object({
  id: z.uuid(),
  employeeId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  rank: Rank,
  fleet: Fleet,
  base: Base,
  apic: z.boolean(),
  ltc: z.boolean(),
  usualReq: z.boolean(),
  allVisible: z.boolean(),
  testData: z.boolean(),
  emailVerified: z.boolean(),
  /** Personal override of the swap window in days; null uses the setting. */
  searchDayRange: z.number().int().min(0).max(30).nullable(),
  rankLastChanged: IsoDate.nullable(),
  fleetLastChanged: IsoDate.nullable(),
  ltcLastChanged: IsoDate.nullable(),
  usualReqOff: IsoDate.nullable(),
  createdAt: z.string(),
});
export type Pilot = z.infer<typeof Pilot>;

/** What another pilot may see of a pilot (swap offers, crew lists). */
export const PilotContact = Pilot.pick({
  id: true,
  employeeId: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  rank: true,
  fleet: true,
  base: true,
  apic: true,
  ltc: true,
});
export type PilotContact = z.infer<typeof PilotContact>;

// Shaping helpers live in shaping.ts (no zod) so the browser can use them; re-exported here.
export {
  ADMIN_PHONE_PLUS_ZERO_MESSAGE,
  PHONE_PLUS_ZERO_MESSAGE,
  shapeEmailPrefix,
  shapeName,
  shapePhone,
} from './shaping';

export const UpdatePilotBody = z.strictObject({
  employeeId: z.string().max(20).optional(),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  phone: z.string().max(30).optional(),
  rank: Rank.optional(),
  fleet: Fleet.optional(),
  base: Base.optional(),
  apic: z.boolean().optional(),
  ltc: z.boolean().optional(),
  usualReq: z.boolean().optional(),
  allVisible: z.boolean().optional(),
  searchDayRange: z.number().int().min(0).max(30).nullable().optional(),
});
export type UpdatePilotBody = z.infer<typeof UpdatePilotBody>;

export const ChangePasswordBody = z.strictObject({
  currentPassword: z.string().min(1, 'Please enter your current password.').max(200),
  newPassword: z.string().max(200),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const MasterRosterCooldown = z.object({
  canEnable: z.boolean(),
  daysRemaining: z.number().int().min(0),
});
export type MasterRosterCooldown = z.infer<typeof MasterRosterCooldown>;
