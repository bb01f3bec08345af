import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateIataCodeBody, IataCodeList } from '@crewswap/proto';
import { request } from './client';
import { queryKeys } from './keys';
import { fixed } from './mutations';

/** Used when the list cannot be fetched, so common routes still validate (pilot spec section 8). */
export const FALLBACK_IATA_CODES = [
  'LHR', 'MAN', 'JFK', 'LAX', 'SFO', 'BOS', 'MIA', 'ATL', 'SEA', 'IAD',
  'EWR', 'LAS', 'MCO', 'TPA', 'DEL', 'BOM', 'JNB', 'LOS', 'HKG', 'PVG',
  'ICN', 'TLV', 'BGI', 'ANU', 'MBJ',
] as const;

export interface IataList {
  codes: Set<string>;
  /** True when the server's list could not be fetched and the built-in one is used. */
  fallback: boolean;
}

export function useIataCodes() {
  return useQuery({
    queryKey: queryKeys.iataCodes,
    // The spec caches the list for 10 minutes; every other query never goes stale.
    staleTime: 10 * 60 * 1000,
    refetchOnMount: true,
    queryFn: async (): Promise<IataList> => {
      try {
        // Codes only; after 10 minutes the browser asks again with the list's ETag and a 304
        // keeps the copy it has.
        const codes = await request<IataCodeList>('/api/iata-codes');
        return { codes: new Set(codes.map((code) => code.toUpperCase())), fallback: false };
      } catch {
        return { codes: new Set(FALLBACK_IATA_CODES), fallback: true };
      }
    },
  });
}

/** Confirm Valid Airport: the code joins the list for every pilot, and this pilot's list at once. */
export function useAddIataCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => request<unknown>('/api/iata-codes', { method: 'POST', body: { iataCode: code } satisfies CreateIataCodeBody }),
    onSuccess: (_answer, code) =>
      queryClient.setQueryData<IataList>(queryKeys.iataCodes, (list) => (list ? { ...list, codes: new Set([...list.codes, code]) } : list)),
    meta: fixed('Error', 'Failed to add airport code to database.'),
  });
}
