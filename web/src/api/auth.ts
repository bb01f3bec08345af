import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthPublicConfig, DeletedPilotLookup, LoginResponse, MessageResponse, Pilot, RegisterBody, RegisterResponse, RestorePilotBody } from '@crewswap/proto';
import { request, setSessionActive } from './client';
import { queryKeys } from './keys';

/** What auth tells the login page: the company email domain and the product's name. */
export type AuthConfig = AuthPublicConfig;

export const DEFAULT_PRODUCT_NAME = import.meta.env.VITE_PRODUCT_NAME || 'CrewSwap';

export function useAuthConfig() {
  return useQuery({
    queryKey: queryKeys.authConfig,
    queryFn: () => request<AuthConfig>('/api/auth/config'),
  });
}

export function useProductName(): string {
  const { data } = useAuthConfig();
  return data?.productName || DEFAULT_PRODUCT_NAME;
}

/** The signed-in pilot, or null when there is none (or the call fails). */
export function useCurrentPilot() {
  return useQuery({
    queryKey: queryKeys.currentPilot,
    queryFn: async () => {
      try {
        const pilot = await request<Pilot | null>('/api/pilot/current', { nullOn401: true });
        setSessionActive(pilot !== null);
        return pilot;
      } catch {
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

export const authApi = {
  login: (email: string, password: string) =>
    request<LoginResponse>('/api/auth/login', { method: 'POST', body: { email, password } }),
  logout: () => request<unknown>('/api/auth/logout', { method: 'POST' }),
  forgotPassword: (email: string) =>
    request<MessageResponse>('/api/auth/forgot-password', { method: 'POST', body: { email } }),
  verifyEmail: (email: string, code: string) =>
    request<Partial<LoginResponse> & { message?: string }>('/api/auth/verify-email', {
      method: 'POST',
      body: { email, code },
    }),
  resendVerification: (email: string) =>
    request<MessageResponse>('/api/auth/resend-verification', { method: 'POST', body: { email } }),
  forcePasswordChange: (newPassword: string, confirmPassword: string) =>
    request<Partial<LoginResponse> & { message?: string }>('/api/auth/force-password-change', {
      method: 'POST',
      body: { newPassword, confirmPassword },
    }),
  register: (body: RegisterBody) => request<RegisterResponse>('/api/auth/register', { method: 'POST', body }),
  testLogin: (email: string, password: string) =>
    request<LoginResponse>('/api/auth/test-login', { method: 'POST', body: { email, password } }),
  checkDeletedPilot: (employeeId: string) =>
    request<DeletedPilotLookup>(`/api/check-deleted-pilot/${encodeURIComponent(employeeId)}`),
  restorePilot: (body: RestorePilotBody) => request<unknown>('/api/restore-pilot', { method: 'POST', body }),
};
