import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_SWAP_DESCRIPTION } from '@crewswap/proto/browser';
import type { Trip } from '@crewswap/proto';
import { useSaveDescription } from '../../api/trips';

export const AUTOSAVE_DELAY_MS = 2000;

/**
 * The swap description saves itself 2 s after typing stops, and at once when the dialog closes;
 * a failed save puts back the last saved text.
 */
export function useDescriptionAutosave(trip: Trip) {
  const { mutate: saveDescription } = useSaveDescription();
  const [text, setText] = useState(trip.swapDescription ?? '');
  const saved = useRef(trip.swapDescription ?? '');
  const latest = useRef(text);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  /**
   * Saves what was typed, if anything changed; gives the text saved now. The save is queued, not
   * waited for (offline it is sent later, offlineQueue.ts): a refusal puts back the text before it.
   */
  const save = useCallback(async (): Promise<string> => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const value = latest.current.trim();
    if (value === saved.current) return value;
    const before = saved.current;
    saved.current = value;
    saveDescription(
      { id: trip.id, text: value === '' ? null : value },
      {
        onError: () => {
          if (saved.current !== value) return;
          saved.current = before;
          latest.current = before;
          setText(before);
        },
      },
    );
    return value;
  }, [saveDescription, trip.id]);

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

  // While 'Save Swap Preference?' asks, nothing saves behind the pilot's back: Cancel saves at once
  // (flush), Discard drops it.
  const pause = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
  }, []);

  return { text, change, flush: save, pause, pending: () => latest.current.trim() !== saved.current };
}
