import { describe, expect, it } from 'vitest';
import { describeLoginFailure } from './loginFailure';

describe('login answers of the error catalogue', () => {
  it('counts failed attempts as n of 5', () => {
    expect(describeLoginFailure({ error: 'Invalid email or password.', remainingAttempts: 3 }).title).toBe('Failed login attempt 2 of 5');
  });
  it('warns at 1 remaining that the next failure resets the password', () => {
    const toast = describeLoginFailure({ error: 'x', remainingAttempts: 1 });
    expect(toast.title).toBe('Failed login attempt 4 of 5');
    expect(toast.kind).toBe('warning');
    expect(toast.description).toMatch(/reset your password/);
  });
  it('a reset password is sticky', () => {
    const toast = describeLoginFailure({ error: 'Your password was reset.', passwordReset: true });
    expect(toast).toMatchObject({ title: 'Password Reset', sticky: true });
  });
  it('a locked account', () => {
    expect(describeLoginFailure({ error: 'Locked', accountLocked: true }).title).toBe('Account Locked');
  });
  it('an unverified pilot opens the verification dialog', () => {
    expect(describeLoginFailure({ error: 'Verify', emailVerificationRequired: true })).toMatchObject({
      title: 'VS Pilot Verification Required',
      openVerification: true,
    });
  });
  it('anything else is Invalid email or password.', () => {
    expect(describeLoginFailure(undefined).description).toBe('Invalid email or password.');
  });
});
