import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_LOGIN_FAILED_MESSAGE, ADMIN_LOGIN_FAILED_TITLE } from '@crewswap/proto/browser';
import type { AdminLoginBody, AdminLoginResponse, CurrentAdmin } from '@crewswap/proto';
import { errorMessage } from '../../../api/client';
import { onFailure } from '../../../api/mutations';
import { adminRequest, endAdminSession } from './adminRequest';
import { adminKeys } from './keys';

/** The signed-in admin, or null when there is none. */
export function useCurrentAdmin() {
  return useQuery({
    queryKey: adminKeys.current,
    queryFn: () => adminRequest<CurrentAdmin | null>('/api/admin/current', { nullOn401: true }),
  });
}

export function useAdminLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminLoginBody) => adminRequest<AdminLoginResponse>('/api/admin/login', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.current }),
    meta: onFailure((error) => ({ title: ADMIN_LOGIN_FAILED_TITLE, description: errorMessage(error) || ADMIN_LOGIN_FAILED_MESSAGE })),
  });
}

/** Logging out always ends up at /admin/login: a failed logout ('Logout failed') is treated like success. */
export function useAdminLogout() {
  return useMutation({
    mutationFn: () => adminRequest<unknown>('/api/admin/logout', { method: 'POST' }),
    onSettled: () => endAdminSession(),
  });
}
