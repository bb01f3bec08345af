import { clearSessionCookie, PILOT_COOKIE, routes, type Clock, type SettingsClient } from '@crewswap/kit';
import { API, type TestPilotList } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { toPilot } from '../data/pilots';
import { lookupDeletedPilot } from '../domain/deleted-profiles';
import type { Repositories } from '../domain/deps';
import { assertTestingMode } from '../domain/test-login';
import { masterRosterCooldown } from '../domain/update-profile';
import type { pilotGuards } from './guards';
import type { AuthUseCases } from '../domain/use-cases';

/** `/api/pilot/current`, `/api/pilots/*` and the deleted-profile lookup and restore. */
export function pilotRoutes(
  app: FastifyInstance,
  deps: { repos: Repositories; clock: Clock; settings: Pick<SettingsClient, 'get'>; guards: ReturnType<typeof pilotGuards>; useCases: AuthUseCases },
): void {
  const { repos, clock, guards, useCases } = deps;
  const route = routes(app);
  const own = { auth: guards.ownPilot };

  route(API.currentPilot, { auth: guards.pilot }, async ({ session }) => toPilot(session.pilot));

  route(API.testPilots, { auth: 'none' }, async (): Promise<TestPilotList> => {
    await assertTestingMode(deps.settings);
    const pilots = await repos.pilots.list();
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

  route(API.updateMyProfile, own, async ({ session, body }) => useCases.updateProfile.execute({ pilotId: session.pilot.id, body }));

  route(API.masterRosterCooldown, own, async ({ session }) => masterRosterCooldown(session.pilot, clock.today()));

  route(API.changeMyPassword, own, async ({ session, body }) => useCases.changePassword.execute({ pilot: session.pilot, body }));

  route(API.deleteMyProfile, own, async ({ session, reply }) => {
    await useCases.deletePilot.execute({ pilotId: session.pilot.id, coolingOff: true });
    clearSessionCookie(reply, PILOT_COOKIE);
    return { message: 'Your profile has been deleted.' };
  });

  route(API.checkDeletedPilot, { auth: 'none' }, async ({ params }) =>
    lookupDeletedPilot(repos.deleted, params.employeeId, clock.today()),
  );

  route(API.restorePilot, { auth: 'none' }, async ({ body }) => useCases.restorePilot.execute(body));
}
