import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClearAllSubscriptionsResponse, Setting, SettingKey } from '@crewswap/proto';
import { queryKeys } from '../../../api/keys';
import { titled } from '../../../api/mutations';
import { adminRequest } from './adminRequest';
import { adminKeys } from './keys';

export function useAdminSettings(enabled = true) {
  return useQuery({ queryKey: adminKeys.settings, queryFn: () => adminRequest<Setting[]>('/api/admin/settings'), enabled });
}

/** A setting's value from the list, or '' when it is not there. */
export function settingValue(settings: Setting[] | undefined, key: SettingKey): string {
  return settings?.find((setting) => setting.key === key)?.value ?? '';
}

function useSettingsChanged() {
  const queryClient = useQueryClient();
  return (keys: SettingKey[]) => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.settings });
    // The pilot app reads some of these (Interbids link, find-swaps range): its copies are stale now.
    for (const key of keys) void queryClient.invalidateQueries({ queryKey: queryKeys.setting(key) });
  };
}

function putSetting(key: SettingKey, value: string) {
  return adminRequest<Setting>(`/api/admin/settings/${key}`, { method: 'PUT', body: { value } });
}

/** Saves several settings at once (System Settings' one Save button). */
export function useUpdateSettings() {
  const changed = useSettingsChanged();
  return useMutation({
    mutationFn: async (values: Partial<Record<SettingKey, string>>) => {
      const entries = Object.entries(values) as [SettingKey, string][];
      const results = await Promise.allSettled(entries.map(([key, value]) => putSetting(key, value)));
      changed(entries.map(([key]) => key));
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
    meta: titled('Error', 'Failed to update one or more settings'),
  });
}

/** One setting (a Security toggle, the access code, the timeout). */
export function useUpdateSetting() {
  const changed = useSettingsChanged();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) => putSetting(key, value),
    onSuccess: (_setting, { key }) => changed([key]),
    meta: titled('Error', 'Failed to update setting'),
  });
}

export function useClearPushSubscriptions() {
  return useMutation({
    mutationFn: () => adminRequest<ClearAllSubscriptionsResponse>('/api/notifications/clear-all', { method: 'DELETE' }),
    // The spec's error catalogue: titled 'Error' with the server's message, else this fallback.
    meta: titled('Error', 'Failed to clear subscriptions'),
  });
}
