import { requestRpc, type AdminSession, type Bus, type Clock, type Db, type Outbox } from '@crewswap/kit';
import {
  EMERGENCY_SHUTDOWN_MESSAGE,
  OPERATIONS_RESUMED_MESSAGE,
  RESTART_REQUESTED_MESSAGE,
  RPC,
  SUBJECTS,
  SystemStateReply,
  type EmergencyShutdownResponse,
  type MessageResponse,
} from '@crewswap/proto';
import type { SystemStateRepository } from '../data/system-state-repository';

interface Deps {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  clock: Clock;
  systemState: SystemStateRepository;
}

/** Records the state and announces it (`admin.system.*`) in one transaction. */
async function record(deps: Deps, actor: AdminSession, isShutdown: boolean, reason: string | null): Promise<void> {
  await deps.db.transaction(async (trx) => {
    await deps.systemState.set({ isShutdown, reason, changedBy: actor.adminId, at: deps.clock.now() }, trx);
    await deps.outbox.write(trx, isShutdown ? SUBJECTS.systemShutdown : SUBJECTS.systemResumed, { reason });
  });
}

/**
 * Emergency shutdown. Auth owns pilot sessions and logins, so it is asked first and answers how
 * many sessions it ended; only then does admin record the state and announce it. If auth cannot
 * be reached the call fails with 503 and nothing changes here.
 */
export function createShutdownSystem(deps: Deps) {
  return {
    async execute(input: { actor: AdminSession; reason: string | null }): Promise<EmergencyShutdownResponse> {
      const { sessionsTerminated } = await requestRpc(deps.bus, RPC.setSystemState, { shutdown: true, reason: input.reason }, SystemStateReply);
      await record(deps, input.actor, true, input.reason);
      return { message: EMERGENCY_SHUTDOWN_MESSAGE, sessionsTerminated };
    },
  };
}

/** Resume operations: auth first, as for the shutdown. */
export function createResumeSystem(deps: Deps) {
  return {
    async execute(input: { actor: AdminSession }): Promise<MessageResponse> {
      await requestRpc(deps.bus, RPC.setSystemState, { shutdown: false, reason: null }, SystemStateReply);
      await record(deps, input.actor, false, null);
      return { message: OPERATIONS_RESUMED_MESSAGE };
    },
  };
}

/** Announces a restart; each process drains and exits, and its supervisor starts it again. */
export function createRestartSystem(deps: Pick<Deps, 'db' | 'outbox'>) {
  return {
    async execute(): Promise<MessageResponse> {
      await deps.db.transaction((trx) => deps.outbox.write(trx, SUBJECTS.systemRestart, { reason: 'requested by an admin' }));
      return { message: RESTART_REQUESTED_MESSAGE };
    },
  };
}
