import { clearSessionCookie, notFound, parse, PILOT_COOKIE } from '@crewswap/kit';
import { ChangePasswordBody, EmployeeIdParams, IdParams, RestorePilotBody, UpdatePilotBody, type TestPilotList } from '@crewswap/proto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toPilot } from '../data/pilots';
import type { AuthContext } from '../domain/context';
import { assertTestingMode } from '../domain/login';
import { changeOwnPassword, deletePilot, masterRosterCooldown, updateOwnProfile } from '../domain/profile';
import { lookupDeletedPilot, restorePilot } from '../domain/registration';
import { requirePilot } from './guards';

/** `/api/pilot/current`, `/api/pilots/*` and the deleted-profile lookup and restore. */
export function pilotRoutes(app: FastifyInstance, ctx: AuthContext): void {
  /** The signed-in pilot, who may act only on their own id; another pilot's id is 404. */
  async function ownPilot(request: FastifyRequest) {
    const signedIn = await requirePilot(ctx, request);
    const { id } = parse(IdParams, request.params);
    if (signedIn.pilot.id !== id) throw notFound('Pilot not found.');
    return signedIn;
  }

  app.get('/api/pilot/current', async (request) => toPilot((await requirePilot(ctx, request)).pilot));

  app.get('/api/pilots/all', async (): Promise<TestPilotList> => {
    await assertTestingMode(ctx);
    const pilots = await ctx.repos.pilots.list();
    return pilots
      .map(({ id, firstName, lastName, rank, fleet, ltc, apic, employeeId, email, testData }) => ({
        id,
        name: `${firstName} ${lastName}`,
        firstName,
        lastName,
        rank,
        fleet,
        ltc,
        apic,
        employeeId,
        email,
        testData,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  });

  app.patch('/api/pilots/:id', async (request) => {
    const { pilot } = await ownPilot(request);
    return updateOwnProfile(ctx, pilot.id, parse(UpdatePilotBody, request.body));
  });

  app.get('/api/pilots/:id/check-master-roster-cooldown', async (request) => {
    const { pilot } = await ownPilot(request);
    return masterRosterCooldown(pilot, ctx.clock.today());
  });

  app.patch('/api/pilots/:id/password', async (request) => {
    const { pilot } = await ownPilot(request);
    return changeOwnPassword(ctx, pilot, parse(ChangePasswordBody, request.body));
  });

  app.delete('/api/pilots/:id', async (request, reply) => {
    const { pilot } = await ownPilot(request);
    await deletePilot(ctx, pilot.id, { coolingOff: true });
    clearSessionCookie(reply, PILOT_COOKIE);
    return { message: 'Your profile has been deleted.' };
  });

  app.get('/api/check-deleted-pilot/:employeeId', async (request) => {
    const { employeeId } = parse(EmployeeIdParams, request.params);
    return lookupDeletedPilot(ctx, employeeId);
  });

  app.post('/api/restore-pilot', async (request) => restorePilot(ctx, parse(RestorePilotBody, request.body)));
}
