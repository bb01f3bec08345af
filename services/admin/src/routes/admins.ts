import { adminWith, routes, type Runtime } from '@crewswap/kit';
import { API, type Admin, type MessageResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AdminRepository } from '../data/admin-repository';
import type { AdminUseCases } from '../domain/use-cases';

/** Administrator management: every route needs manage_admins (a master admin has it). */
export function adminsRoutes(app: FastifyInstance, deps: { runtime: Runtime; admins: AdminRepository; useCases: Pick<AdminUseCases, 'createAdmin' | 'updateAdmin' | 'removeAdmin' | 'setAdminPassword'> }): void {
  const { admins, useCases } = deps;
  const route = routes(app);
  const auth = adminWith(deps.runtime.guard, 'manage_admins');

  route(API.listAdmins, { auth }, async (): Promise<Admin[]> => admins.list());

  route(API.createAdmin, { auth, status: 201 }, async ({ session, body }): Promise<Admin> =>
    useCases.createAdmin.execute({ actor: session, body }),
  );

  route(API.updateAdmin, { auth }, async ({ session, params, body }): Promise<Admin> =>
    useCases.updateAdmin.execute({ actor: session, id: params.id, body }),
  );

  route(API.deleteAdmin, { auth }, async ({ session, params }): Promise<MessageResponse> => {
    await useCases.removeAdmin.execute({ actor: session, id: params.id });
    return { message: 'Admin deleted' };
  });

  route(API.setAdminPassword, { auth }, async ({ session, params, body }): Promise<MessageResponse> => {
    await useCases.setAdminPassword.execute({ actor: session, id: params.id, body });
    return { message: 'Password set' };
  });
}
