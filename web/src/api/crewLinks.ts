import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AirportCheck, CrewLink, CrewLinkBody, CrewLinkLike, CrewLinkSuggestion, SimilarCrewLink } from '@crewswap/proto';
import { CREW_LINK_LOOKUP_MIN, CREW_LINK_MESSAGES } from '@crewswap/proto/browser';
import { ApiError, errorMessage, request } from './client';
import { queryKeys } from './keys';
import { fixed, onFailure } from './mutations';

export interface CrewLinkFilter {
  search: string;
  category: string;
  destinations: readonly string[];
}

function listPath(filter: CrewLinkFilter): string {
  const params = new URLSearchParams();
  if (filter.search.trim()) params.set('search', filter.search.trim());
  if (filter.category) params.set('category', filter.category);
  if (filter.destinations.length > 0) params.set('destination', filter.destinations.join(','));
  const query = params.toString();
  return query ? `/api/crew-links?${query}` : '/api/crew-links';
}

export function useCrewLinks(filter: CrewLinkFilter) {
  return useQuery({
    queryKey: queryKeys.crewLinkList(filter),
    queryFn: () => request<CrewLink[]>(listPath(filter)),
    // Typing in the search box should not blank the cards between answers.
    placeholderData: keepPreviousData,
  });
}

/** One link, shown at once from any list that holds it, then read fresh. */
export function useCrewLink(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.crewLink(id),
    queryFn: () => request<CrewLink>(`/api/crew-links/${id}`),
    placeholderData: () => findInLists(queryClient, id),
    refetchOnMount: 'always',
  });
}

function findInLists(queryClient: QueryClient, id: string): CrewLink | undefined {
  for (const [, links] of queryClient.getQueriesData<CrewLink[]>({ queryKey: [...queryKeys.crewLinks, 'list'] })) {
    const found = links?.find((link) => link.id === id);
    if (found) return found;
  }
  return undefined;
}

const lookup = (text: string) => text.trim().length >= CREW_LINK_LOOKUP_MIN;

/** The search box's suggestions, from 2 characters. */
export function useCrewLinkSuggestions(q: string) {
  return useQuery({
    queryKey: queryKeys.crewLinkSuggestions(q.trim()),
    queryFn: () => request<CrewLinkSuggestion[]>(`/api/crew-links/suggestions?q=${encodeURIComponent(q.trim())}`),
    enabled: lookup(q),
    placeholderData: keepPreviousData,
  });
}

/** Links with a title like the one being typed, from 2 characters. */
export function useSimilarCrewLinks(title: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.crewLinkSimilar(title.trim()),
    queryFn: () => request<SimilarCrewLink[]>(`/api/crew-links/similar?title=${encodeURIComponent(title.trim())}`),
    enabled: enabled && lookup(title),
  });
}

export function useCrewLinkDestinations() {
  return useQuery({
    queryKey: queryKeys.crewLinkDestinations,
    queryFn: () => request<string[]>('/api/crew-links/destinations'),
  });
}

/** A save either stores the link or names the one unknown airport code the pilot may add. */
export type SaveResult = { saved: CrewLink } | { unknownCode: string };

/** What the form sends: the whole link, and the id when it is an edit. */
export interface SaveVariables {
  id?: string;
  body: CrewLinkBody;
}

export function useSaveCrewLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: SaveVariables): Promise<SaveResult> => {
      try {
        const saved = id
          ? await request<CrewLink>(`/api/crew-links/${id}`, { method: 'PUT', body })
          : await request<CrewLink>('/api/crew-links', { method: 'POST', body });
        return { saved };
      } catch (error) {
        // One unknown code is a question for the pilot (Unknown Airport Code), not a failure.
        const code = unknownCodeOf(error);
        if (code) return { unknownCode: code };
        throw error;
      }
    },
    onSuccess: (result) => {
      if (!('saved' in result)) return;
      queryClient.setQueryData(queryKeys.crewLink(result.saved.id), result.saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.crewLinks });
    },
    meta: onFailure<SaveVariables>((error, { id }) => {
      if (error instanceof ApiError && error.status === 401) return { title: 'Error', description: CREW_LINK_MESSAGES.mustBeLoggedIn };
      if (error instanceof ApiError && error.title) return { title: error.title, description: error.message };
      return { title: 'Error', description: `Failed to ${id ? 'update' : 'add'} crew link: ${errorMessage(error)}` };
    }),
  });
}

function unknownCodeOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const body = error.body as { unknownCode?: unknown } | undefined;
  return typeof body?.unknownCode === 'string' ? body.unknownCode : undefined;
}

export function useDeleteCrewLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (link: CrewLink) => request<unknown>(`/api/crew-links/${link.id}`, { method: 'DELETE' }),
    onSuccess: (_answer, link) => {
      queryClient.removeQueries({ queryKey: queryKeys.crewLink(link.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.crewLinks });
    },
    meta: onFailure((error) => ({ title: 'Error', description: `Failed to delete crew link: ${errorMessage(error)}` })),
  });
}

/** Like or unlike; every cached copy of the link takes the server's count. */
export function useLikeCrewLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ link, like }: { link: CrewLink; like: boolean }) =>
      request<CrewLinkLike>(`/api/crew-links/${link.id}/like`, { method: like ? 'POST' : 'DELETE' }),
    onSuccess: (state, { link }) => {
      const apply = (item: CrewLink) => (item.id === link.id ? { ...item, ...state } : item);
      queryClient.setQueriesData<CrewLink[]>({ queryKey: [...queryKeys.crewLinks, 'list'] }, (links) => links?.map(apply));
      queryClient.setQueryData<CrewLink>(queryKeys.crewLink(link.id), (item) => item && apply(item));
    },
    meta: onFailure((error) => ({ title: 'Error', description: `Failed to update like: ${errorMessage(error)}` })),
  });
}

/** The destination filter's check of one typed code against the IATA list. */
export function useCheckAirport() {
  return useMutation({
    mutationFn: (code: string) => request<AirportCheck>(`/api/crew-links/airport-check?code=${encodeURIComponent(code)}`),
    meta: fixed('Error', CREW_LINK_MESSAGES.airportCheckFailed),
  });
}
