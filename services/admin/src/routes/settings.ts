import { parse, type Runtime } from '@crewswap/kit';
import { PutSettingBody, SettingKeyParams, type Setting, type SettingValueResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import {
  asPublicSettingKey,
  asSettingKey,
  normaliseSettingValue,
  requireSettingPermission,
  requireSettingsReadPermission,
  visibleSettings,
  type SettingsService,
} from '../domain/settings';

export function settingsRoutes(app: FastifyInstance, deps: { runtime: Runtime; settings: SettingsService }): void {
  const { runtime, settings } = deps;

  // Reading follows the console's menus (System Settings or Security); secrets only with Security.
  app.get('/api/admin/settings', async (request): Promise<Setting[]> => {
    const session = runtime.guard.admin(request);
    requireSettingsReadPermission(session);
    return visibleSettings(session, await settings.list());
  });

  app.put('/api/admin/settings/:key', async (request): Promise<Setting> => {
    const session = runtime.guard.admin(request);
    const key = asSettingKey(parse(SettingKeyParams, request.params).key);
    requireSettingPermission(session, key);
    const { value } = parse(PutSettingBody, request.body ?? {});
    return settings.change(key, normaliseSettingValue(key, value));
  });

  app.get('/api/settings/:key', async (request): Promise<SettingValueResponse> => {
    const key = asPublicSettingKey(parse(SettingKeyParams, request.params).key);
    return { value: await settings.get(key) };
  });
}
