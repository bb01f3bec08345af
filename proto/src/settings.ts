import { z } from 'zod';
import type { Permission } from './admin';
import { TECH_SUPPORT_LINK_MESSAGE, WHATSAPP_INVITE_LINK } from './crew-rules';
import { FLIGHT_TIME_LIMITS_RULE } from './flight-times';
import { DEFAULT_FLIGHT_TIME_LIMITS } from './legality';

export const SETTING_KEYS = [
  'interbids_url',
  'swap_search_days',
  'upload_email',
  'outgoing_email',
  'user_guide_path',
  'session_timeout_minutes',
  'email_verification_enabled',
  'testing_button_enabled',
  'testing_password',
  'daily_access_code',
  'access_code_path',
  'access_code_email',
  'tech_support_whatsapp_url',
  'crewing_email',
  'flight_time_limits',
] as const;
export const SettingKey = z.enum(SETTING_KEYS);
export type SettingKey = z.infer<typeof SettingKey>;

/** The only settings a browser may read through `GET /api/settings/{key}`; every secret stays out. */
export const PUBLIC_SETTING_KEYS = [
  'interbids_url',
  'swap_search_days',
  'upload_email',
  'user_guide_path',
  'testing_button_enabled',
  'tech_support_whatsapp_url',
] as const satisfies readonly SettingKey[];
export type PublicSettingKey = (typeof PUBLIC_SETTING_KEYS)[number];


/**
 * Settings the console may set but never read back (decisions: the browser never receives the
 * testing password): their `value` is always '' in answers, and `isSet` says whether one is stored.
 */
export const WRITE_ONLY_SETTING_KEYS = ['testing_password'] as const satisfies readonly SettingKey[];

export const Setting = z.object({
  key: SettingKey,
  value: z.string(),
  updated_at: z.string(),
  /** Write-only settings only: whether a value is stored (the value itself is never sent). */
  isSet: z.boolean().optional(),
});
export type Setting = z.infer<typeof Setting>;

export const SettingValueResponse = z.object({ value: z.string() });

/**
 * `GET /api/access-code?path=`: the daily access code, for the page at the setting
 * access_code_path, to a signed-in administrator or pilot (those who may hand it on).
 */
export const AccessCodeQuery = z.object({ path: z.string().min(1).max(300) });
export type AccessCodeQuery = z.infer<typeof AccessCodeQuery>;
export const AccessCodeResponse = z.object({ code: z.string(), updatedAt: z.string() });
export type AccessCodeResponse = z.infer<typeof AccessCodeResponse>;
export type SettingValueResponse = z.infer<typeof SettingValueResponse>;

/** The console may send a number or a toggle as such; every setting is stored as text. */
export const PutSettingBody = z.strictObject({
  value: z.union([z.string().max(2000), z.number(), z.boolean()]).transform((value) => String(value)),
});
export type PutSettingBody = z.infer<typeof PutSettingBody>;

const email = z.email('Please enter a valid email address');
export const TESTING_PASSWORD_MIN_LENGTH = 8;
const dayCount = z.coerce
  .number('Must be a number')
  .int('Must be a whole number')
  .min(1, 'Must be at least 1 day')
  .max(30, 'Cannot exceed 30 days');
const boolText = z.enum(['true', 'false'], "Must be 'true' or 'false'");

/** How each setting's value is validated when an admin changes it (admin spec section 5). */
export const SETTING_VALUE_RULES: Record<SettingKey, z.ZodType<unknown>> = {
  // Only web addresses: pilots open this link, so a javascript: or data: URL must never be stored.
  interbids_url: z.url({ protocol: /^https?$/, error: 'Please enter a valid URL' }),
  swap_search_days: dayCount,
  upload_email: email,
  outgoing_email: email,
  user_guide_path: z.string().trim().min(1, 'User guide path is required'),
  session_timeout_minutes: z.coerce
    .number('Must be a number')
    .int('Must be a whole number')
    .min(5, 'Must be at least 5 minutes')
    .max(1440, 'Cannot exceed 24 hours (1440 minutes)'),
  email_verification_enabled: boolText,
  testing_button_enabled: boolText,
  // It opens every pilot's account in testing mode: longer than a pilot's own minimum of 6.
  testing_password: z.string().min(1, 'Testing password is required').min(TESTING_PASSWORD_MIN_LENGTH, `Testing password must be at least ${TESTING_PASSWORD_MIN_LENGTH} characters long`),
  // Spec: 'a random 6-digit number'.
  daily_access_code: z.string().trim().min(1, 'Daily access code is required').regex(/^\d{6}$/, 'Daily access code must be exactly 6 digits'),
  access_code_path: z.string().trim().min(1, 'Access code path is required'),
  access_code_email: email,
  // The Tech Support Group's join link: blank until an admin sets it, else a WhatsApp invite link.
  tech_support_whatsapp_url: z
    .string()
    .trim()
    .refine((value) => value === '' || WHATSAPP_INVITE_LINK.test(value), TECH_SUPPORT_LINK_MESSAGE),
  // Blank: agreed swaps' crewing requests go to the two pilots only.
  crewing_email: z
    .string()
    .trim()
    .refine((value) => value === '' || email.safeParse(value).success, 'Please enter a valid email address'),
  // JSON of the limits and the report/release allowances (issue 55); stored with every field spelled out.
  flight_time_limits: FLIGHT_TIME_LIMITS_RULE,
};

export const SETTING_DEFAULTS: Record<SettingKey, string> = {
  interbids_url: 'https://interbids.example-airline.test',
  swap_search_days: '4',
  // roster-ingest's ROSTER_UPLOAD_EMAIL default: the address is a valid email from the first start (System Settings saves only valid ones).
  upload_email: 'roster-upload@crewswap.local',
  outgoing_email: 'noreply@crewswap.local',
  user_guide_path: '/user-guide.pdf',
  session_timeout_minutes: '30',
  email_verification_enabled: 'true',
  testing_button_enabled: 'false',
  testing_password: '',
  daily_access_code: '',
  access_code_path: '/access-code',
  access_code_email: 'access@crewswap.local',
  tech_support_whatsapp_url: '',
  crewing_email: '',
  flight_time_limits: JSON.stringify(DEFAULT_FLIGHT_TIME_LIMITS),
};

export const SettingKeyParams = z.strictObject({ key: z.string().max(100) });

export const SettingsList = z.array(Setting);
export type SettingsList = z.infer<typeof SettingsList>;


const SYSTEM: readonly Permission[] = ['manage_system', 'manage_settings'];
const SECURITY: readonly Permission[] = ['view_security_alerts', 'manage_system'];
/**
 * Who may change a setting: any one of the listed permissions (a master admin always may).
 * System settings follow the System Settings menu (manage_system), and manage_settings, the spec's
 * key named for settings, grants them too (and nothing else). Security settings follow the
 * Security menu (view_security_alerts); manage_system may change them too, since it is the
 * broader system permission.
 */
export const SETTING_PERMISSIONS: Record<SettingKey, readonly Permission[]> = {
  interbids_url: SYSTEM,
  upload_email: SYSTEM,
  outgoing_email: SYSTEM,
  user_guide_path: SYSTEM,
  swap_search_days: SYSTEM,
  session_timeout_minutes: SECURITY,
  email_verification_enabled: SECURITY,
  testing_button_enabled: SECURITY,
  daily_access_code: SECURITY,
  access_code_path: SECURITY,
  access_code_email: SECURITY,
  testing_password: SECURITY,
  tech_support_whatsapp_url: SYSTEM,
  crewing_email: SYSTEM,
  flight_time_limits: SYSTEM,
};

/**
 * The Security panel's keys (with the testing password that goes with the testing toggle): the
 * settings the Security menu governs, so that the panel and the permissions cannot disagree.
 */
export const SECURITY_SETTING_KEYS: readonly SettingKey[] = SETTING_KEYS.filter((key) => SETTING_PERMISSIONS[key] === SECURITY);

/** Who may read the settings list: the System Settings menu (manage_system, manage_settings) or Security (view_security_alerts). */
export const SETTINGS_READ_PERMISSIONS: readonly Permission[] = ['manage_system', 'manage_settings', 'view_security_alerts'];

/** Secrets in the list: their values are shown only to a master admin or a holder of view_security_alerts. */
export const SECRET_SETTING_KEYS = ['testing_password', 'daily_access_code'] as const satisfies readonly SettingKey[];
export const SECRET_SETTINGS_PERMISSION: Permission = 'view_security_alerts';
