import type { SettingKey } from './settings';

/**
 * The administration's plain constants, zod-free so the admin console can import them through
 * `@crewswap/proto/browser` (the schemas that use them import them from here).
 */
export const PERMISSIONS = [
  'manage_pilots',
  'manage_destinations',
  'manage_admins',
  'view_analytics',
  'manage_settings',
  'view_security_alerts',
  'manage_system',
  'manage_swaps',
] as const;

/**
 * Who may use the emergency controls (status, shutdown, resume) and the restart a session-timeout
 * change needs: they sit in the Security panel, which the spec opens with view_security_alerts;
 * manage_system, the broader system permission, may too (as with the security settings).
 */
export const EMERGENCY_PERMISSIONS = ['view_security_alerts', 'manage_system'] as const satisfies readonly (typeof PERMISSIONS)[number][];

export const ADMIN_LOGIN_FAILED_MESSAGE = 'Invalid email or password';
export const ADMIN_LOGIN_FAILED_TITLE = 'Login Failed';

export const ADMIN_PASSWORD_MISMATCH_MESSAGE = 'Passwords do not match';
export const ADMIN_PASSWORD_LENGTH_MESSAGE = 'Password must be at least 6 characters long';

export const SESSION_TIMEOUT_OPTIONS = [5, 10, 15, 30, 60, 120, 240, 480, 720, 1440] as const;

/** The System Settings panel's keys (admin spec section 2). */
export const SYSTEM_SETTING_KEYS = [
  'interbids_url',
  'upload_email',
  'outgoing_email',
  'user_guide_path',
  'swap_search_days',
  'tech_support_whatsapp_url',
  'crewing_email',
] as const satisfies readonly SettingKey[];

export const CLEANUP_FREQUENCIES = ['stopped', 'daily', 'weekly', 'monthly'] as const;
export const CLEANUP_RETENTION = { min: 1, max: 30, default: 7 } as const;
export const CLEANUP_HISTORY_LENGTH = 30;
