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

export const AdminLoginBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Please enter both email and password').max(200),
  password: z.string().min(1, 'Please enter both email and password').max(200),
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
