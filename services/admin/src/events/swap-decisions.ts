import { startDurableConsumer, type Bus, type Db, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS, tripPhrase, type SwapAgreement, type TripMove } from '@crewswap/proto';
import type { Logger } from 'pino';
import type { ActivityRepository } from '../data/activity-repository';
import type { AdminRepository } from '../data/admin-repository';

/**
 * The crewing desk's decisions in the activity log: swaps decides (it owns the agreements) and
 * says so in `swaps.agreement.approved|refused`; the entry names the administrator, when, and
 * what moved. Decisions recorded by pilots before the desk existed name no administrator and are
 * passed over. A redelivered event writes nothing twice (the kit records what it applied).
 */
export function startSwapDecisionLog(deps: { db: Db; bus: Bus; log: Logger; admins: AdminRepository; activity: ActivityRepository }): Promise<RunningConsumer> {
  const { admins, activity } = deps;
  return startDurableConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'SWAPS',
    durable: 'admin_swap_decisions',
    filter: 'swaps.agreement.>',
    subjects: [SUBJECTS.agreementApproved, SUBJECTS.agreementRefused],
    handler: {
      apply: async (event, _prepared, trx) => {
        const { agreement, by, moves } = event.data;
        if (!(await admins.findById(by, trx))) return;
        const approved = event.type === SUBJECTS.agreementApproved;
        await activity.record(
          {
            adminId: by,
            action: approved ? 'swap_request_approved' : 'swap_request_refused',
            detail: approved ? describeMoves(agreement, moves ?? []) : `${describeAgreement(agreement)}; reason: ${agreement.reason ?? ''}`,
            at: new Date(event.occurredAt),
          },
          trx,
        );
      },
    },
  });
}

const nameOf = (side: SwapAgreement['owner'] | SwapAgreement['proposer']) => `${side.pilot.firstName} ${side.pilot.lastName} (${side.pilot.employeeId})`;

function describeAgreement(agreement: SwapAgreement): string {
  const given = agreement.proposer.trip ? tripPhrase(agreement.proposer.trip) : 'nothing (a give-away)';
  return `agreement ${agreement.id}: ${nameOf(agreement.proposer)} gives ${given}, ${nameOf(agreement.owner)} gives ${tripPhrase(agreement.owner.trip)}`;
}

/** Who now flies what: the moves, by the trips and pilots the agreement names. */
function describeMoves(agreement: SwapAgreement, moves: TripMove[]): string {
  const sides = [agreement.proposer, agreement.owner];
  const pilotName = (id: string) => {
    const side = sides.find((candidate) => candidate.pilot.id === id);
    return side ? nameOf(side) : id;
  };
  const tripOf = (id: string) => sides.map((side) => side.trip).find((trip) => trip?.id === id);
  const moved = moves.map((move) => {
    const trip = tripOf(move.tripId);
    return `${trip ? tripPhrase(trip) : move.tripId} to ${pilotName(move.toPilotId)}`;
  });
  return `agreement ${agreement.id}: ${moved.join('; ') || 'nothing moved'}`;
}
