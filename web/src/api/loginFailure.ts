import { MAX_LOGIN_ATTEMPTS } from '@crewswap/proto/browser';
import type { LoginFailure } from '@crewswap/proto';
import { ApiError } from './client';

export interface LoginFailureToast {
  title: string;
  description: string;
  sticky: boolean;
  kind: 'error' | 'warning';
  openVerification: boolean;
}

export const INVALID_LOGIN = 'Invalid email or password.';

/** Reads a refused login the way the pilot spec's error catalogue (section 8) does. */
export function describeLoginFailure(failure: Partial<LoginFailure> | undefined): LoginFailureToast {
  const body = failure ?? {};
  const serverText = typeof body.error === 'string' && body.error !== '' ? body.error : undefined;
  if (body.emailVerificationRequired) {
    return {
      title: 'VS Pilot Verification Required',
      description: serverText ?? 'Please enter the verification code from your email.',
      sticky: false,
      kind: 'warning',
      openVerification: true,
    };
  }
  if (body.systemShutdown) {
    return {
      title: 'System Temporarily Unavailable',
      description: serverText ?? 'The system is temporarily unavailable. Please try again later.',
      sticky: false,
      kind: 'error',
      openVerification: false,
    };
  }
  if (body.passwordReset) {
    return {
      title: 'Password Reset',
      description: serverText ?? 'Too many failed attempts. A new password has been sent to your registered email address.',
      sticky: true,
      kind: 'error',
      openVerification: false,
    };
  }
  if (body.accountLocked) {
    return {
      title: 'Account Locked',
      description: serverText ?? 'Your account is locked. Please check your email.',
      sticky: false,
      kind: 'error',
      openVerification: false,
    };
  }
  if (typeof body.remainingAttempts === 'number') {
    const attempt = MAX_LOGIN_ATTEMPTS - body.remainingAttempts;
    const lastChance = body.remainingAttempts === 1;
    return {
      title: `Failed login attempt ${attempt} of ${MAX_LOGIN_ATTEMPTS}`,
      description: lastChance
        ? `${INVALID_LOGIN} Warning: 1 attempt remaining. One more failed attempt will reset your password and a new one will be emailed to you.`
        : INVALID_LOGIN,
      sticky: false,
      kind: lastChance ? 'warning' : 'error',
      openVerification: false,
    };
  }
  return { title: 'Login Failed', description: INVALID_LOGIN, sticky: false, kind: 'error', openVerification: false };
}

/** The flags of a refused login, when the error is one. */
export function loginFailureOf(error: unknown): Partial<LoginFailure> | undefined {
  return error instanceof ApiError && typeof error.body === 'object' && error.body !== null
    ? (error.body as Partial<LoginFailure>)
    : undefined;
}
