import { parse, type Runtime } from '@crewswap/kit';
import { AdminBody, AdminIdParams, SetAdminPasswordBody, type Admin, type MessageResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AdminsService } from '../domain/admins';

/** Administrator management: every route needs manage_admins (a master admin has it). */
export function adminsRoutes(app: FastifyInstance, deps: { runtime: Runtime; admins: AdminsService }): void {
  const { runtime, admins } = deps;
  const guard = runtime.guard;

  app.get('/api/admin/admins', async (request): Promise<Admin[]> => {
    guard.admin(request, 'manage_admins');
    return admins.list();
  });

  app.post('/api/admin/admins', async (request, reply): Promise<Admin> => {
    const session = guard.admin(request, 'manage_admins');
    const created = await admins.create(session, parse(AdminBody, request.body ?? {}));
    reply.code(201);
    return created;
  });

  app.put('/api/admin/admins/:id', async (request): Promise<Admin> => {
    const session = guard.admin(request, 'manage_admins');
    const { id } = parse(AdminIdParams, request.params);
    return admins.update(session, id, parse(AdminBody, request.body ?? {}));
  });

  app.delete('/api/admin/admins/:id', async (request): Promise<MessageResponse> => {
    const session = guard.admin(request, 'manage_admins');
    const { id } = parse(AdminIdParams, request.params);
    await admins.remove(session, id);
    return { message: 'Admin deleted' };
  });

  app.post('/api/admin/admins/:id/set-password', async (request): Promise<MessageResponse> => {
    const session = guard.admin(request, 'manage_admins');
    const { id } = parse(AdminIdParams, request.params);
    await admins.setInitialPassword(session, id, parse(SetAdminPasswordBody, request.body ?? {}));
    return { message: 'Password set' };
  });
}
