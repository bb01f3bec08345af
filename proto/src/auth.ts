import { z } from 'zod';
import { Base, Fleet, Rank } from './common';
import { Pilot } from './pilot';

import { MIN_PASSWORD_LENGTH } from './constants';

export { MAX_LOGIN_ATTEMPTS, MIN_PASSWORD_LENGTH } from './constants';

/**
 * Registration is checked field by field in the spec's order on the server (see auth's register
 * rules), so the body only bounds types and sizes here; blanks are allowed through to get the
 * spec's 'Missing Information' message rather than a generic one.
 *
 * The spec's API table sends "all registration fields plus email": `email` is the full company
 * address, and may come with `emailPrefix` (they must agree) or instead of it.
 */
export const RegisterBody = z.strictObject({
  firstName: z.string().max(100).default(''),
  lastName: z.string().max(100).default(''),
  employeeId: z.string().max(20).default(''),
  phone: z.string().max(30).default(''),
  emailPrefix: z.string().max(100).default(''),
  email: z.string().max(200).optional(),
  rank: Rank.optional(),
  fleet: Fleet.optional(),
  base: Base.optional(),
  apic: z.boolean().default(true),
  ltc: z.boolean().default(false),
  usualReq: z.boolean().default(true),
  password: z.string().max(200).default(''),
  confirmPassword: z.string().max(200).default(''),
});
export type RegisterBody = z.input<typeof RegisterBody>;

/** What registering and signing in both answer: the pilot, with the flag that says what comes next. */
const PilotAnswer = z.object({ pilot: Pilot });

export const RegisterResponse = PilotAnswer.extend({ emailVerificationRequired: z.boolean() });
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const LoginBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Please enter your email and password.').max(200),
  password: z.string().min(1, 'Please enter your email and password.').max(200),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginResponse = PilotAnswer.extend({ forcePasswordChange: z.boolean() });
export type LoginResponse = z.infer<typeof LoginResponse>;

/** A refused login: the flags the pilot app's error catalogue reads. */
export const LoginFailure = z.object({
  error: z.string(),
  title: z.string().optional(),
  remainingAttempts: z.number().int().min(0).optional(),
  accountLocked: z.boolean().optional(),
  passwordReset: z.boolean().optional(),
  emailVerificationRequired: z.boolean().optional(),
  systemShutdown: z.boolean().optional(),
});
export type LoginFailure = z.infer<typeof LoginFailure>;

export const EmailBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Please enter your email address first.').max(200),
});
export type EmailBody = z.infer<typeof EmailBody>;

/**
 * `POST /api/auth/resend-verification` inside the minute after the last code: 429 with the
 * seconds left (also sent as `Retry-After`); nothing was mailed.
 */
export const ResendVerificationWait = z.object({
  error: z.string(),
  title: z.string().optional(),
  retryAfterSeconds: z.number().int().min(1),
});
export type ResendVerificationWait = z.infer<typeof ResendVerificationWait>;

export const VerifyEmailBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1).max(200),
  code: z
    .string()
    .transform((code) => code.replace(/\s/g, ''))
    .pipe(
      z
        .string()
        .min(6, 'Please enter the verification code from your email')
        .max(20, 'Please enter the verification code from your email'),
    ),
});
export type VerifyEmailBody = z.input<typeof VerifyEmailBody>;

export const ForcePasswordChangeBody = z.strictObject({
  newPassword: z.string().max(200),
  confirmPassword: z.string().max(200),
});
export type ForcePasswordChangeBody = z.infer<typeof ForcePasswordChangeBody>;

export const TestLoginBody = z.strictObject({
  /** The chosen pilot's email. */
  email: z.string().trim().toLowerCase().min(1).max(200),
  /** The testing password, checked against the setting on the server. */
  password: z.string().min(1).max(200),
});
export type TestLoginBody = z.infer<typeof TestLoginBody>;

export const DeletedPilotLookup = z.object({
  exists: z.boolean(),
  pilot: z
    .object({
      firstName: z.string(),
      lastName: z.string(),
      employeeId: z.string(),
      email: z.string(),
      rank: Rank,
      fleet: Fleet,
      daysRemaining: z.number().int(),
    })
    .optional(),
});
export type DeletedPilotLookup = z.infer<typeof DeletedPilotLookup>;

export const RestorePilotBody = z.strictObject({
  employeeId: z.string().regex(/^\d{6}$/, 'Employee ID must be exactly 6 digits.'),
  updatedData: z.strictObject({
    password: z.string().min(MIN_PASSWORD_LENGTH, 'Password must be at least 6 characters long.').max(200),
    emailVerified: z.literal(false).optional(),
  }),
});
export type RestorePilotBody = z.infer<typeof RestorePilotBody>;

export const EmployeeIdParams = z.strictObject({
  employeeId: z.string().max(20),
});

/** One entry of the Test Pilot Login dialog (`GET /api/pilots/all`, testing mode only): nothing secret. */
export const TestPilot = Pilot.pick({
  id: true,
  firstName: true,
  lastName: true,
  rank: true,
  fleet: true,
  ltc: true,
  apic: true,
  employeeId: true,
  email: true,
  testData: true,
}).extend({ name: z.string() });
export type TestPilot = z.infer<typeof TestPilot>;
export const TestPilotList = z.array(TestPilot);
export type TestPilotList = z.infer<typeof TestPilotList>;

/** What the login page needs to know before anyone signs in. */
export const AuthPublicConfig = z.object({
  companyEmailDomain: z.string(),
  productName: z.string(),
});
export type AuthPublicConfig = z.infer<typeof AuthPublicConfig>;
