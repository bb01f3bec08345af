import type { WhatsappGroupResponse } from '@crewswap/proto';
import { groupResponse, viewGroup, type GroupUseCaseDeps, type TripInput } from './state';

/** `GET /api/trips/{id}/whatsapp-group`: the group the caller's crew shares, and its state. */
export function createGetWhatsappGroup(deps: GroupUseCaseDeps) {
  return {
    async execute(input: TripInput): Promise<WhatsappGroupResponse> {
      return deps.db.transaction(async (trx) => groupResponse(await viewGroup(deps, trx, input), input.pilotId));
    },
  };
}
