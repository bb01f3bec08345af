import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Admin, AdminActivityEntry, AdminBody, MessageResponse, SetAdminPasswordBody } from '@crewswap/proto';
import { titled } from '../../../api/mutations';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';

export type AdminForm = Omit<AdminBody, 'id'>;

export function useAdmins(enabled = true) {
  return useQuery({ queryKey: adminKeys.admins, queryFn: () => adminRequest<Admin[]>('/api/admin/admins'), enabled });
}

/** Who did what, when (master admins only). */
export function useAdminActivity(enabled = true) {
  return useQuery({ queryKey: adminKeys.activityLog, queryFn: () => adminRequest<AdminActivityEntry[]>('/api/admin/activity-log'), enabled });
}

function useAdminsChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.admins });
    // An admin may have changed their own permissions: the menu follows.
    void queryClient.invalidateQueries({ queryKey: adminKeys.current });
  };
}

export function useAddAdmin() {
  const changed = useAdminsChanged();
  return useMutation({
    mutationFn: (body: AdminForm) => adminRequest<Admin>('/api/admin/admins', { method: 'POST', body }),
    onSuccess: changed,
    meta: titled('Error', 'Failed to add admin'),
  });
}

export function useUpdateAdmin() {
  const changed = useAdminsChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AdminForm }) =>
      adminRequest<Admin>(`/api/admin/admins/${id}`, { method: 'PUT', body: { ...body, id } }),
    onSuccess: changed,
    meta: titled('Error', 'Failed to update admin'),
  });
}

export function useDeleteAdmin() {
  const changed = useAdminsChanged();
  return useMutation({
    mutationFn: (id: string) => adminRequest<MessageResponse>(`/api/admin/admins/${id}`, { method: 'DELETE' }),
    onSuccess: changed,
    meta: titled('Error', 'Failed to delete admin'),
  });
}

export function useSetAdminPassword() {
  const changed = useAdminsChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SetAdminPasswordBody }) =>
      adminRequest<MessageResponse>(`/api/admin/admins/${id}/set-password`, { method: 'POST', body }),
    onSuccess: changed,
    meta: titled('Error', 'Failed to set password'),
  });
}
