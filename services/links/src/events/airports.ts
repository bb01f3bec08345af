import { requestRpc, unavailable, type Bus } from '@crewswap/kit';
import { CREW_LINK_MESSAGES, KnownAirportsReply, RPC } from '@crewswap/proto';

/** Which codes trips knows; the IATA list is trips' data, so links asks rather than copies it. */
export interface AirportCheck {
  known(codes: string[]): Promise<Set<string>>;
}

export function createAirportCheck(bus: Bus, timeoutMs: number): AirportCheck {
  return {
    async known(codes) {
      if (codes.length === 0) return new Set();
      try {
        const reply = await requestRpc(bus, RPC.knownAirports, { codes }, KnownAirportsReply, timeoutMs);
        return new Set(reply.known);
      } catch {
        // Trips down, slow or answering oddly: the pilot reads the spec's words and may retry.
        throw unavailable(CREW_LINK_MESSAGES.airportCheckFailed);
      }
    },
  };
}
