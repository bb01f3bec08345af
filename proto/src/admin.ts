import { z } from 'zod';

import { PERMISSIONS } from './admin-constants';

export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

// A missing field is a blank one (prefault runs the min check on ''), so both get the spec's message.
export const AdminLoginBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Please enter both email and password').max(200).prefault(''),
  password: z.string().min(1, 'Please enter both email and password').max(200).prefault(''),
});
export type AdminLoginBody = z.infer<typeof AdminLoginBody>;

export const CurrentAdmin = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  isMasterAdmin: z.boolean(),
  permissions: z.array(Permission),
});
export type CurrentAdmin = z.infer<typeof CurrentAdmin>;

/** An administrator as the console's admin management lists it (never with a password). */
export const Admin = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  jobTitle: z.string().nullable(),
  isMasterAdmin: z.boolean(),
  permissions: z.array(Permission),
  lastLoginAt: z.string().nullable(),
});
export type Admin = z.infer<typeof Admin>;

/** A successful admin login answers the admin now signed in (the console then reads /current). */
export const AdminLoginResponse = CurrentAdmin;
export type AdminLoginResponse = z.infer<typeof AdminLoginResponse>;


const isEmail = (value: string) => z.email().safeParse(value).success;

/**
 * The add/edit admin form (admin spec sections 5 and 7). `id` may accompany an edit (the console
 * sends it) but the path decides which admin changes. Name and email are required.
 */
export const AdminBody = z.strictObject({
  id: z.string().optional(),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'Email is required')
    .max(200)
    .refine((value) => value === '' || isEmail(value), 'Please enter a valid email address')
    .prefault(''),
  name: z.string().trim().min(1, 'Name is required').max(200).prefault(''),
  phone: z
    .string()
    .trim()
    .max(30)
    .nullish()
    .transform((value) => value || null),
  jobTitle: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((value) => value || null),
  isMasterAdmin: z.boolean().default(false),
  permissions: z.array(Permission).max(PERMISSIONS.length * 2).default([]),
});
export type AdminBody = z.infer<typeof AdminBody>;

/** Setting an initial password; the console's confirmation field is checked too when sent. */
export const SetAdminPasswordBody = z.strictObject({
  password: z.string().max(200).prefault(''),
  confirmPassword: z.string().max(200).optional(),
});
export type SetAdminPasswordBody = z.infer<typeof SetAdminPasswordBody>;

export const AdminIdParams = z.object({ id: z.uuid('No such admin') });

// Emergency controls (admin spec sections 4 and 7).
export const EmergencyStatus = z.object({ isShutdown: z.boolean() });
export type EmergencyStatus = z.infer<typeof EmergencyStatus>;

/**
 * The console sends `{reason}` once the admin has typed EMERGENCY; a bare POST (no JSON object)
 * is refused so a stray request cannot stop the service. The reason itself is optional text.
 */
export const EmergencyShutdownBody = z.strictObject({
  reason: z.string().trim().max(500).nullish().transform((value) => value || null),
});
export type EmergencyShutdownBody = z.infer<typeof EmergencyShutdownBody>;

export const EmergencyShutdownResponse = z.object({ message: z.string(), sessionsTerminated: z.number().int().min(0) });
export type EmergencyShutdownResponse = z.infer<typeof EmergencyShutdownResponse>;

export const EMERGENCY_SHUTDOWN_MESSAGE = 'Emergency shutdown activated. All pilot sessions have been terminated.';
export const OPERATIONS_RESUMED_MESSAGE = 'Operations resumed. Pilots can log in again.';
export const RESTART_REQUESTED_MESSAGE = 'Restart requested. Services are draining and will be restarted by their supervisor.';

/** One entry of the admin activity log (Manage Admins, Admin Activity Logs): who did what, when. */
export const AdminActivityEntry = z.object({
  id: z.uuid(),
  adminId: z.uuid().nullable(),
  adminName: z.string().nullable(),
  adminEmail: z.string().nullable(),
  /** `login`, `login_failed`, `logout`, `session_timeout`, or the change as `METHOD /route/:param`. */
  action: z.string(),
  detail: z.string().nullable(),
  ipAddress: z.string().nullable(),
  at: z.string(),
});
export type AdminActivityEntry = z.infer<typeof AdminActivityEntry>;
/** The newest entries first; `limit` 1-500 (default 100). */
export const AdminActivityQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
