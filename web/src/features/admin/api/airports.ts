import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateExcludedAirportBody, CreateIataCodeBody, ExcludedAirport, IataCode, UpdateIataCodeBody } from '@crewswap/proto';
import { queryKeys } from '../../../api/keys';
import { titled } from '../../../api/mutations';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';

export function useAdminIataCodes() {
  return useQuery({ queryKey: adminKeys.iataCodes, queryFn: () => adminRequest<IataCode[]>('/api/admin/iata-codes') });
}

function useIataChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.iataCodes });
    // The pilot app's own copy of the list, should this browser hold one.
    void queryClient.invalidateQueries({ queryKey: queryKeys.iataCodes });
  };
}

export function useCreateIataCode() {
  const changed = useIataChanged();
  return useMutation({
    mutationFn: (body: CreateIataCodeBody) => adminRequest<IataCode>('/api/admin/iata-codes', { method: 'POST', body }),
    onSuccess: changed,
    meta: titled('Error', 'Failed to create IATA code'),
  });
}

export function useUpdateIataCode() {
  const changed = useIataChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateIataCodeBody }) =>
      adminRequest<IataCode>(`/api/admin/iata-codes/${id}`, { method: 'PATCH', body }),
    onSuccess: changed,
    meta: titled('Error', 'Failed to update IATA code'),
  });
}

export function useDeleteIataCode() {
  const changed = useIataChanged();
  return useMutation({
    mutationFn: (id: string) => adminRequest<unknown>(`/api/admin/iata-codes/${id}`, { method: 'DELETE' }),
    onSuccess: changed,
    meta: titled('Error', 'Failed to delete IATA code'),
  });
}

export function useExcludedAirports() {
  return useQuery({ queryKey: adminKeys.excludedAirports, queryFn: () => adminRequest<ExcludedAirport[]>('/api/admin/excluded-airports') });
}

export function useAddExcludedAirport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateExcludedAirportBody) => adminRequest<ExcludedAirport>('/api/admin/excluded-airports', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.excludedAirports }),
    meta: titled('Error', 'Failed to add excluded airport'),
  });
}

export function useDeleteExcludedAirport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminRequest<unknown>(`/api/admin/excluded-airports/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.excludedAirports }),
    meta: titled('Error', 'Failed to delete excluded airport'),
  });
}
