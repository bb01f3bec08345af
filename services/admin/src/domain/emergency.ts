import { requestRpc, type AdminSession, type Bus, type Clock, type Db, type Outbox } from '@crewswap/kit';
import {
  EMERGENCY_SHUTDOWN_MESSAGE,
  OPERATIONS_RESUMED_MESSAGE,
  RESTART_REQUESTED_MESSAGE,
  RPC,
  SUBJECTS,
  SystemStateReply,
  type EmergencyShutdownResponse,
  type EmergencyStatus,
  type MessageResponse,
} from '@crewswap/proto';

/**
 * Emergency shutdown and resume. Auth owns pilot sessions and logins, so it is asked first and
 * answers how many sessions it ended; only then does admin record the state and announce it
 * (`admin.system.*`). If auth cannot be reached the call fails with 503 and nothing changes here.
 */
export function createEmergencyService(deps: { db: Db; bus: Bus; outbox: Outbox; clock: Clock }) {
  const { db, bus, outbox, clock } = deps;

  async function record(actor: AdminSession, isShutdown: boolean, reason: string | null): Promise<void> {
    await db.transaction(async (trx) => {
      await trx('system_state').where({ id: 1 }).update({ is_shutdown: isShutdown, reason, changed_by: actor.adminId, updated_at: clock.now() });
      await outbox.write(trx, isShutdown ? SUBJECTS.systemShutdown : SUBJECTS.systemResumed, { reason });
    });
  }

  return {
    async status(): Promise<EmergencyStatus> {
      const row: { is_shutdown: boolean } | undefined = await db('system_state').where({ id: 1 }).first('is_shutdown');
      return { isShutdown: row?.is_shutdown === true };
    },

    async shutdown(actor: AdminSession, reason: string | null): Promise<EmergencyShutdownResponse> {
      const { sessionsTerminated } = await requestRpc(bus, RPC.setSystemState, { shutdown: true, reason }, SystemStateReply);
      await record(actor, true, reason);
      return { message: EMERGENCY_SHUTDOWN_MESSAGE, sessionsTerminated };
    },

    async resume(actor: AdminSession): Promise<MessageResponse> {
      await requestRpc(bus, RPC.setSystemState, { shutdown: false, reason: null }, SystemStateReply);
      await record(actor, false, null);
      return { message: OPERATIONS_RESUMED_MESSAGE };
    },

    /** Announces a restart; each process drains and exits, and its supervisor starts it again. */
    async restart(): Promise<MessageResponse> {
      await db.transaction((trx) => outbox.write(trx, SUBJECTS.systemRestart, { reason: 'requested by an admin' }));
      return { message: RESTART_REQUESTED_MESSAGE };
    },
  };
}
export type EmergencyService = ReturnType<typeof createEmergencyService>;
