import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pilot, RosterSubscription, RosterSubscriptionFetched, RosterUploadAddress, RosterUploadResult } from '@crewswap/proto';
import { ROSTER_FILE_TOO_LARGE, ROSTER_MAX_BYTES, ROSTER_UNSUPPORTED_EXTENSION, isRosterFileName } from '@crewswap/proto/browser';
import { ApiError, endSession, request, SESSION_FLAGS } from './client';
import { queryKeys } from './keys';

/** The upload dialog's stages and the progress each shows (pilot spec, "Roster upload"). */
export type UploadStage = 'idle' | 'validating' | 'uploading' | 'processing' | 'success' | 'error';
export const STAGE_PERCENT: Record<UploadStage, number> = { idle: 0, validating: 10, uploading: 30, processing: 70, success: 100, error: 100 };

/**
 * The spec's checks before anything is sent; answers the message to show, or null. `accepts` is
 * the name rule: a chosen file needs .ics or .cal, a file opened with the app any of its handled
 * extensions.
 */
export function rosterFileProblem(file: Pick<File, 'name' | 'size'>, accepts: (name: string) => boolean = isRosterFileName): string | null {
  if (file.size > ROSTER_MAX_BYTES) return ROSTER_FILE_TOO_LARGE;
  if (!accepts(file.name)) return ROSTER_UNSUPPORTED_EXTENSION;
  return null;
}

/**
 * `.ics_` (as some mail apps save it) is sent as `.ics`; so are the other calendar extensions a
 * file opened with the app may carry (.ical, .icalendar, .ifb, .vcs): the server reads the
 * content and answers trips or a clear message, never a silent refusal of the name.
 */
export function uploadName(name: string): string {
  return name.replace(/\.(ics_|ical|icalendar|ifb|vcs)$/i, '.ics');
}

/**
 * Sends the file with XMLHttpRequest, the one browser API that reports upload progress:
 * 30-50 % while the bytes go up, then 70-90 % while the server imports.
 */
function sendRoster(file: File, onProgress: (stage: UploadStage, percent: number) => void): Promise<RosterUploadResult> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('roster', file, uploadName(file.name));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/roster/upload');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    let processing: ReturnType<typeof setInterval> | undefined;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress('uploading', 30 + Math.round((20 * event.loaded) / Math.max(event.total, 1)));
    };
    xhr.upload.onload = () => {
      let percent = 70;
      onProgress('processing', percent);
      processing = setInterval(() => {
        percent = Math.min(90, percent + 5);
        onProgress('processing', percent);
      }, 400);
    };
    xhr.onerror = () => {
      clearInterval(processing);
      reject(new ApiError(0, 'Upload failed', undefined, undefined));
    };
    xhr.onload = () => {
      clearInterval(processing);
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as RosterUploadResult);
      if (xhr.status === 401) endSession(SESSION_FLAGS.expired);
      const record = (body ?? {}) as { message?: unknown; error?: unknown };
      const message = typeof record.message === 'string' ? record.message : typeof record.error === 'string' ? record.error : 'Upload failed';
      reject(new ApiError(xhr.status, message, undefined, body));
    };
    xhr.send(form);
  });
}

/** Upload a roster: session check first (GET current pilot), then the file; the trips list and stats refresh. */
export function useUploadRoster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, onProgress }: { file: File; onProgress: (stage: UploadStage, percent: number) => void }) => {
      const pilot = await request<Pilot | null>('/api/pilot/current', { nullOn401: true });
      if (!pilot) {
        endSession(SESSION_FLAGS.expired);
        throw new ApiError(401, 'Session expired', undefined, undefined);
      }
      onProgress('uploading', 30);
      return sendRoster(file, onProgress);
    },
    // Pilot spec section 7: after an upload /api/stats is refreshed too.
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.trips }), queryClient.invalidateQueries({ queryKey: queryKeys.stats })]),
  });
}

/** The session check before How To: a pilot without a session goes to the login page. */
export async function checkSession(): Promise<boolean> {
  const pilot = await request<Pilot | null>('/api/pilot/current', { nullOn401: true }).catch(() => null);
  if (!pilot) endSession(SESSION_FLAGS.expired);
  return Boolean(pilot);
}

/** The pilot's private upload address: mail to it is imported for this pilot from any account. */
export function useUploadAddress() {
  return useQuery({
    queryKey: queryKeys.uploadAddress,
    queryFn: async () => (await request<RosterUploadAddress>('/api/roster/upload-address')).address,
    staleTime: Infinity,
  });
}

/** Replaces the private address (one that leaked); the old one stops working at once. */
export function useReplaceUploadAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await request<RosterUploadAddress>('/api/roster/upload-address', { method: 'POST', body: {} })).address,
    onSuccess: (address) => queryClient.setQueryData(queryKeys.uploadAddress, address),
  });
}

/** The pilot's roster address and its last fetch; null when there is none (404). */
export function useRosterSubscription() {
  return useQuery({
    queryKey: queryKeys.rosterSubscription,
    queryFn: () =>
      request<RosterSubscription>('/api/roster/subscription').catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
  });
}

/**
 * Saves the roster address (fetched and imported at once, answered like an upload) or fetches it
 * now (`refresh`); either may change the trips.
 */
export function useFetchRosterSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string } | 'refresh') =>
      input === 'refresh'
        ? request<RosterSubscriptionFetched>('/api/roster/subscription/refresh', { method: 'POST', body: {} })
        : request<RosterSubscriptionFetched>('/api/roster/subscription', { method: 'PUT', body: input }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.rosterSubscription }),
        queryClient.invalidateQueries({ queryKey: queryKeys.trips }),
        queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
      ]),
  });
}

export function useRemoveRosterSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('/api/roster/subscription', { method: 'DELETE' }),
    onSuccess: () => queryClient.setQueryData(queryKeys.rosterSubscription, null),
  });
}
