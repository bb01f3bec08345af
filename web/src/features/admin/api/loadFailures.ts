import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, errorMessage } from '../../../api/client';
import { toast } from '../../../shared/toast';

export const LOAD_FAILED_TITLE = 'Failed to Load';

/**
 * Tells the admin when something the console asked for could not be loaded (a service down, a
 * refusal), once per failure: the panels would otherwise show an empty table or 'No analytics data
 * available', which reads as "there is nothing". An ended session (401) is not told here: the
 * console goes to its login. Whether an admin is signed in is the login's business too.
 */
export function useLoadFailuresTold(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        const [area, what] = event.query.queryKey as unknown[];
        if (area !== 'admin' || what === 'current') return;
        const { error } = event.action;
        if (error instanceof ApiError && error.status === 401) return;
        toast.error(LOAD_FAILED_TITLE, errorMessage(error));
      }),
    [queryClient],
  );
}
