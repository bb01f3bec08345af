import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_SWAP_DESCRIPTION } from '@crewswap/proto/browser';
import type { Trip } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import { queryKeys } from '../../api/keys';
import { isTrip, storeTrip, tripsApi } from '../../api/trips';
import { toast } from '../../shared/toast';

export const AUTOSAVE_DELAY_MS = 2000;

/**
 * The swap description saves itself 2 s after typing stops, and at once when the dialog closes;
 * a failed save puts back the last saved text.
 */
export function useDescriptionAutosave(trip: Trip) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(trip.swapDescription ?? '');
  const saved = useRef(trip.swapDescription ?? '');
  const latest = useRef(text);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const save = useCallback(async () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const value = latest.current.trim();
    if (value === saved.current) return;
    try {
      const answer = await tripsApi.setDescription(trip.id, value === '' ? null : value);
      saved.current = value;
      if (isTrip(answer)) storeTrip(queryClient, answer);
      else {
        queryClient.setQueryData<Trip[]>(queryKeys.trips, (trips) =>
          trips?.map((t) => (t.id === trip.id ? { ...t, swapDescription: value === '' ? null : value } : t)),
        );
      }
    } catch (error) {
      latest.current = saved.current;
      setText(saved.current);
      toast.error('Error', `Failed to update description: ${errorMessage(error)}`);
    }
  }, [queryClient, trip.id]);

  const change = useCallback(
    (next: string) => {
      const value = next.slice(0, MAX_SWAP_DESCRIPTION);
      latest.current = value;
      setText(value);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    },
    [save],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  return { text, change, flush: save, pending: () => latest.current.trim() !== saved.current };
}
