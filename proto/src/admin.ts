import { z } from 'zod';

export const PERMISSIONS = [
  'manage_pilots',
  'manage_destinations',
  'manage_admins',
  'view_analytics',
  'manage_settings',
  'view_security_alerts',
  'manage_system',
] as const;
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

export const ADMIN_LOGIN_FAILED_MESSAGE = 'Invalid email or password';
export const ADMIN_LOGIN_FAILED_TITLE = 'Login Failed';
