import { parse, type Runtime } from '@crewswap/kit';
import { PutSettingBody, SettingKeyParams, type Setting, type SettingValueResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { asPublicSettingKey, asSettingKey, normaliseSettingValue, requireSettingPermission, type SettingsService } from '../domain/settings';

export function settingsRoutes(app: FastifyInstance, deps: { runtime: Runtime; settings: SettingsService }): void {
  const { runtime, settings } = deps;

  // Any admin may read every setting (the testing password included: admins set it); only
  // changing one needs its permission.
  app.get('/api/admin/settings', async (request): Promise<Setting[]> => {
    runtime.guard.admin(request);
    return settings.list();
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
