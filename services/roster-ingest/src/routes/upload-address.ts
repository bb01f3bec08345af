import { routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { UploadAddressRepository } from '../data/upload-addresses';
import { privateAddress } from '../domain/upload-address';

/**
 * The pilot's private roster upload address, shown in the upload dialog: mail to it is imported
 * for this pilot whoever the sender's mail system is. POST replaces it (a leaked address).
 */
export function uploadAddressRoutes(app: FastifyInstance, deps: { guard: SessionGuard; addresses: UploadAddressRepository; uploadAddress: () => Promise<string> }): void {
  const { guard, addresses, uploadAddress } = deps;
  const route = routes(app);

  route(API.rosterUploadAddress, { auth: guard.pilot }, async ({ session }) => ({
    address: privateAddress(await uploadAddress(), await addresses.tokenOf(session.pilotId)),
  }));

  route(API.replaceRosterUploadAddress, { auth: guard.pilot }, async ({ session }) => ({
    address: privateAddress(await uploadAddress(), await addresses.rotate(session.pilotId)),
  }));
}
