import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, UpdateNotificationPreferencesBody, VapidPublicKeyResponse } from '@crewswap/proto';
import { VAPID_PUBLIC_KEY_PATH } from '@crewswap/proto/browser';
import { ApiError, errorMessage, request } from './client';
import { queryKeys } from './keys';
import { onFailure } from './mutations';
import { useQueuedChange } from './offlineQueue';
import { currentSubscription, PUSH_ERRORS, PushError, subscribeBrowser, unsubscribeBrowser } from './push';

export function useNotificationPreferences() {
  return useQuery({
    queryKey: queryKeys.notificationPreferences,
    queryFn: () => request<NotificationPreferences>('/api/notifications/preferences'),
  });
}

/** One switch changed: only that field is sent; the answer is the stored preferences. Offline it waits (offlineQueue.ts). */
export function useUpdateNotificationPreferences() {
  return useQueuedChange('preferences', (changes: UpdateNotificationPreferencesBody) => ({
    method: 'PUT',
    path: '/api/notifications/preferences',
    body: changes,
    card: 'preferences',
    failure: { title: 'Error', fixed: 'Failed to update notification preferences' },
  }));
}

export function useVapidPublicKey(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.vapidPublicKey,
    queryFn: async () => (await request<VapidPublicKeyResponse>(VAPID_PUBLIC_KEY_PATH)).publicKey,
    enabled,
  });
}

/** Whether this browser holds a push subscription (asked of the browser, kept in the cache). */
export function usePushSubscription() {
  return useQuery({ queryKey: queryKeys.pushSubscription, queryFn: async () => (await currentSubscription())?.endpoint ?? null });
}

const notificationError = onFailure((error) => ({ title: 'Notification Error', description: errorMessage(error) }));

/** Enable Push on: permission, a PushManager subscription with the server's key, saved by the server. */
export function useSubscribePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vapidPublicKey: string) => {
      const body = await subscribeBrowser(vapidPublicKey);
      try {
        await request<unknown>('/api/notifications/subscribe', { method: 'POST', body });
      } catch (error) {
        if (error instanceof ApiError && error.status !== 401) throw new PushError(PUSH_ERRORS.saveFailed(error.status));
        throw error;
      }
      return body.endpoint;
    },
    onSuccess: (endpoint) => queryClient.setQueryData(queryKeys.pushSubscription, endpoint),
    // The permission may have changed either way: the badge reads it again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.pushSubscription }),
    meta: notificationError,
  });
}

/** Enable Push off: the browser forgets the subscription and the server deletes it. */
export function useUnsubscribePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await unsubscribeBrowser();
      await request<unknown>('/api/notifications/unsubscribe', { method: 'DELETE' });
    },
    onSuccess: () => queryClient.setQueryData(queryKeys.pushSubscription, null),
    meta: notificationError,
  });
}

/** A test push to this pilot's subscriptions, sent by the server through the push service. */
export function useTestPush() {
  return useMutation({
    mutationFn: () => request<{ message: string; subscriptions: number }>('/api/notifications/test', { method: 'POST' }),
    meta: onFailure((error) => ({ title: 'Test Failed', description: errorMessage(error) })),
  });
}
