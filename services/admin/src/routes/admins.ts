import { adminWith, routes, type Runtime } from '@crewswap/kit';
import { AdminBody, AdminIdParams, SetAdminPasswordBody, type Admin, type MessageResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AdminRepository } from '../data/admin-repository';
import type { AdminUseCases } from '../domain/use-cases';

/** Administrator management: every route needs manage_admins (a master admin has it). */
export function adminsRoutes(app: FastifyInstance, deps: { runtime: Runtime; admins: AdminRepository; useCases: Pick<AdminUseCases, 'createAdmin' | 'updateAdmin' | 'removeAdmin' | 'setAdminPassword'> }): void {
  const { admins, useCases } = deps;
  const route = routes(app);
  const auth = adminWith(deps.runtime.guard, 'manage_admins');

  route.get('/api/admin/admins', { auth }, async (): Promise<Admin[]> => admins.list());

  route.post('/api/admin/admins', { auth, body: AdminBody, status: 201 }, async ({ session, body }): Promise<Admin> =>
    useCases.createAdmin.execute({ actor: session, body }),
  );

  route.put('/api/admin/admins/:id', { auth, params: AdminIdParams, body: AdminBody }, async ({ session, params, body }): Promise<Admin> =>
    useCases.updateAdmin.execute({ actor: session, id: params.id, body }),
  );

  route.delete('/api/admin/admins/:id', { auth, params: AdminIdParams }, async ({ session, params }): Promise<MessageResponse> => {
    await useCases.removeAdmin.execute({ actor: session, id: params.id });
    return { message: 'Admin deleted' };
  });

  route.post('/api/admin/admins/:id/set-password', { auth, params: AdminIdParams, body: SetAdminPasswordBody }, async ({ session, params, body }): Promise<MessageResponse> => {
    await useCases.setAdminPassword.execute({ actor: session, id: params.id, body });
    return { message: 'Password set' };
  });
}
