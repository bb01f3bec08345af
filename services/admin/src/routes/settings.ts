import { notFound, parse, routes, type Runtime } from '@crewswap/kit';
import { API, type AccessCodeResponse, type Setting, type SettingValueResponse } from '@crewswap/proto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SettingsRepository } from '../data/settings-repository';
import {
  asPublicSettingKey,
  asSettingKey,
  forBrowser,
  normaliseSettingValue,
  requireSettingPermission,
  requireSettingsReadPermission,
  visibleSettings,
  type ChangeSetting,
} from '../domain/settings';

export function settingsRoutes(app: FastifyInstance, deps: { runtime: Runtime; settings: SettingsRepository; changeSetting: ChangeSetting }): void {
  const { runtime, settings, changeSetting } = deps;
  const route = routes(app);

  // Reading follows the console's menus (System Settings or Security); secrets only with Security.
  route(API.listSettings, { auth: runtime.guard.admin }, async ({ session }): Promise<Setting[]> => {
    requireSettingsReadPermission(session);
    return visibleSettings(session, await settings.list());
  });

  // Which permission a setting needs depends on its key: the key is checked (404, then 403)
  // before the body, so the handler checks the declared body itself.
  route(API.putSetting, { auth: runtime.guard.admin, handlerReadsBody: true }, async ({ session, params, request }): Promise<Setting> => {
    const key = asSettingKey(params.key);
    requireSettingPermission(session, key);
    const { value } = parse(API.putSetting.body, request.body ?? {});
    return forBrowser(await changeSetting.execute({ key, value: normaliseSettingValue(key, value) }));
  });

  // Those who may hand the code on: any signed-in administrator, or a signed-in (so verified) pilot.
  const signedIn = async (request: FastifyRequest) => {
    try {
      return await runtime.guard.admin(request);
    } catch {
      return runtime.guard.pilot(request);
    }
  };
  route(API.accessCode, { auth: signedIn }, async ({ query, reply }): Promise<AccessCodeResponse> => {
    reply.header('cache-control', 'no-store');
    const all = await settings.list();
    const value = (key: string) => all.find((setting) => setting.key === key);
    const code = value('daily_access_code');
    const path = value('access_code_path')?.value.trim() ?? '';
    // Any other path, or no code yet, is a page like any missing one.
    if (!code || code.value === '' || path === '' || path.replace(/\/+$/, '') !== query.path.replace(/\/+$/, '')) throw notFound('Not found');
    return { code: code.value, updatedAt: code.updated_at };
  });

  route(API.publicSetting, { auth: 'none' }, async ({ params }): Promise<SettingValueResponse> => {
    const key = asPublicSettingKey(params.key);
    return { value: (await settings.get(key)) ?? '' };
  });
}
