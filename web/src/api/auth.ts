import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AuthPublicConfig,
  DeletedPilotLookup,
  LoginResponse,
  MessageResponse,
  Pilot,
  RegisterBody,
  RegisterResponse,
  ResendVerificationWait,
  RestorePilotBody,
} from '@crewswap/proto';
import { ApiError, errorMessage, request, setSessionActive, withExpirySuppressed } from './client';
import { queryKeys } from './keys';
import { describeLoginFailure, loginFailureOf } from './loginFailure';
import { fixed, onFailure, titled } from './mutations';

/** What auth tells the login page: the company email domain and the product's name. */
export type AuthConfig = AuthPublicConfig;

export const DEFAULT_PRODUCT_NAME = import.meta.env.VITE_PRODUCT_NAME || 'CrewSwap';

const authConfigQuery = {
  queryKey: queryKeys.authConfig,
  queryFn: () => request<AuthConfig>('/api/auth/config'),
};

export function useAuthConfig() {
  return useQuery(authConfigQuery);
}

/**
 * The full email for a typed prefix, once auth's config has said the company domain: a pilot who
 * presses Login before it answered (a slow network) must not send the bare prefix and be told the
 * email or password is wrong.
 */
export function useCompanyEmail(): (prefix: string) => Promise<string> {
  const queryClient = useQueryClient();
  return async (prefix) => loginEmail(prefix, (await queryClient.ensureQueryData(authConfigQuery)).companyEmailDomain);
}

export function useProductName(): string {
  const { data } = useAuthConfig();
  return data?.productName || DEFAULT_PRODUCT_NAME;
}

/**
 * The signed-in pilot, or null when there is none. A failed check (no network, the server away)
 * is not a logout: a pilot already known stays (the query keeps its data and fails); with no pilot
 * known, the login page shows.
 */
export function useCurrentPilot() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.currentPilot,
    queryFn: async () => {
      try {
        const pilot = await request<Pilot | null>('/api/pilot/current', { nullOn401: true });
        setSessionActive(pilot !== null);
        return pilot;
      } catch (error) {
        const ended = error instanceof ApiError && error.status === 401;
        if (!ended && queryClient.getQueryData<Pilot | null>(queryKeys.currentPilot)) throw error;
        setSessionActive(false);
        return null;
      }
    },
  });
}

export function useSetCurrentPilot() {
  const queryClient = useQueryClient();
  return (pilot: Pilot | null) => {
    setSessionActive(pilot !== null);
    queryClient.setQueryData(queryKeys.currentPilot, pilot);
  };
}

export function loginEmail(prefix: string, domain: string | undefined): string {
  return domain ? `${prefix}@${domain}` : prefix;
}

interface Credentials {
  email: string;
  password: string;
}

/** A pilot who must enter the emailed code before logging in. */
export interface PendingVerification {
  email: string;
  /** Kept in memory only, so a verified pilot is logged in without typing it again. */
  password?: string;
}

function login({ email, password }: Credentials): Promise<LoginResponse> {
  return request<LoginResponse>('/api/auth/login', { method: 'POST', body: { email, password } });
}

/** Login; a refusal is told as the catalogue reads its flags (attempts left, locked, reset...). */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    meta: onFailure((error) => describeLoginFailure(loginFailureOf(error))),
  });
}

/** True when a refused login asks for the emailed verification code first. */
export function needsVerification(error: unknown): boolean {
  return describeLoginFailure(loginFailureOf(error)).openVerification;
}

/** The auth calls that take nothing but the pilot's email. */
function postEmail(path: string) {
  return (email: string) => request<MessageResponse>(path, { method: 'POST', body: { email } });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: postEmail('/api/auth/forgot-password'), meta: titled('Password Reset Failed') });
}

/**
 * Verify Email, then log the pilot in: with the session the answer carries, else with the password
 * typed a moment ago. Null when neither is there (the pilot logs in by hand).
 */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: async ({ email, password, code }: PendingVerification & { code: string }): Promise<LoginResponse | null> => {
      const answer = await request<Partial<LoginResponse> & { message?: string }>('/api/auth/verify-email', {
        method: 'POST',
        body: { email, code },
      });
      if (answer?.pilot) return { pilot: answer.pilot, forcePasswordChange: answer.forcePasswordChange ?? false };
      return password ? login({ email, password }) : null;
    },
    meta: onFailure((error) =>
      error instanceof ApiError && error.status === 429
        ? { title: 'Too Many Attempts', description: error.message }
        : { title: 'Verification Failed', description: errorMessage(error) },
    ),
  });
}

/** The seconds a refused resend must wait (429), or undefined for any other failure. */
export function resendWait(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 429) return undefined;
  const seconds = (error.body as Partial<ResendVerificationWait> | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
}

export function useResendVerification() {
  return useMutation({
    mutationFn: postEmail('/api/auth/resend-verification'),
    meta: onFailure((error) => ({
      title: resendWait(error) === undefined ? 'Error' : error instanceof ApiError && error.title ? error.title : 'Please Wait',
      description: errorMessage(error),
    })),
  });
}

export function useForcePasswordChange() {
  return useMutation({
    mutationFn: ({ newPassword, confirmPassword }: { newPassword: string; confirmPassword: string }) =>
      request<Partial<LoginResponse> & { message?: string }>('/api/auth/force-password-change', {
        method: 'POST',
        body: { newPassword, confirmPassword },
      }),
    meta: titled('Password Change Failed'),
  });
}

export type Registered = { verification: PendingVerification } | { loggedIn: LoginResponse };

/** Register, then either ask for the emailed code or log straight in (when auth needs no code). */
export function useRegister() {
  return useMutation({
    mutationFn: async ({ body, domain }: { body: RegisterBody; domain: string | undefined }): Promise<Registered> => {
      const answer = await request<RegisterResponse>('/api/auth/register', { method: 'POST', body });
      const email = answer.pilot.email || loginEmail(body.emailPrefix ?? '', domain);
      const password = body.password ?? '';
      if (answer.emailVerificationRequired) return { verification: { email, password } };
      return { loggedIn: await login({ email, password }) };
    },
    meta: onFailure((error) => ({
      title: error instanceof ApiError && error.title ? error.title : 'Registration Failed',
      description: errorMessage(error),
    })),
  });
}

/** Whether an employee ID belongs to a deleted account that can still be restored. */
export function useCheckDeletedPilot() {
  return useMutation({
    mutationFn: (employeeId: string) =>
      request<DeletedPilotLookup>(`/api/check-deleted-pilot/${encodeURIComponent(employeeId)}`),
    // No toast: the spec shows the confirm dialog anyway when the lookup fails.
  });
}

export function useRestorePilot() {
  return useMutation({
    mutationFn: (body: RestorePilotBody) => request<unknown>('/api/restore-pilot', { method: 'POST', body }),
    meta: titled('Restore Failed'),
  });
}

/** Testing mode: log in as a listed pilot with the testing password (checked by the server). */
export function useTestLogin() {
  return useMutation({
    mutationFn: ({ email, password }: Credentials) =>
      request<LoginResponse>('/api/auth/test-login', { method: 'POST', body: { email, password } }),
    meta: onFailure((error) =>
      error instanceof ApiError && (error.status === 401 || error.status === 403)
        ? { title: error.title ?? 'Access Denied', description: error.title ? error.message : 'Incorrect password.' }
        : { title: 'Test Login Failed', description: errorMessage(error) },
    ),
  });
}

export function useLogout() {
  return useMutation({
    // Logging out ends the session on purpose: its 401s are not an expiry.
    mutationFn: () => withExpirySuppressed(() => request<unknown>('/api/auth/logout', { method: 'POST' })),
    meta: fixed('Error', 'Failed to logout.'),
  });
}
