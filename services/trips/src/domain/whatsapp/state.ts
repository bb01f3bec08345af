import { badRequest, forbidden, notFound, type Clock, type Db, type Outbox, type Trx } from '@crewswap/kit';
import { WHATSAPP_MESSAGES as W, whatsappGroupName, type Trip, type WhatsappGroupResponse, type WhatsappGroupStatus } from '@crewswap/proto';
import type { CrewKey, CrewRepository } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import type { TripRepository } from '../../data/trips';
import type { StoredGroup, WhatsappGroupRepository } from '../../data/whatsapp-groups';
import { ownTrip } from '../crew/access';

export interface GroupDeps {
  trips: TripRepository;
  crew: CrewRepository;
  groups: WhatsappGroupRepository;
  clock: Clock;
}

/** What every group use case is built with. */
export interface GroupUseCaseDeps extends GroupDeps {
  db: Db;
  pilots: PilotRepository;
  outbox: Outbox;
}
export interface TripInput {
  pilotId: string;
  tripId: string;
}

/** What a crew member's trip says about its group right now. */
export interface GroupView {
  trip: Trip;
  key: CrewKey;
  /** The trip has ended (Europe/London): nothing new may be set up. */
  expired: boolean;
  /** Everyone holding the flight and start date (the group's crew), the caller included. */
  holders: { pilotId: string; tripId: string; endDate: string }[];
  group: StoredGroup | undefined;
  status: WhatsappGroupStatus;
}

/**
 * The group state of pilot-app section 4: none until created, pending until it has its link,
 * active with it, claimable once its creator no longer holds the trip, expired once the trip ended.
 */
export function statusOf(group: StoredGroup | undefined, expired: boolean, holders: GroupView['holders']): WhatsappGroupStatus {
  if (expired) return 'expired';
  if (!group) return 'none';
  if (!holders.some((holder) => holder.pilotId === group.createdByPilotId)) return 'claimable';
  return group.inviteLink ? 'active' : 'pending';
}

/** Reads the caller's trip (404 if not theirs) and its group, locking the group when it will change. */
export async function viewGroup(deps: GroupDeps, trx: Trx, input: { pilotId: string; tripId: string }, forUpdate = false): Promise<GroupView> {
  const trip = await ownTrip(deps.trips, input.pilotId, input.tripId, trx);
  if (trip.isStandby) throw badRequest(W.standby);
  const key = { flightNoStart: trip.flightNoStart, startDate: trip.startDate };
  const group = await deps.groups.find(key, trx, forUpdate);
  const holders = await deps.crew.holders(key, trx);
  const expired = trip.endDate < deps.clock.today();
  return { trip, key, expired, holders, group, status: statusOf(group, expired, holders) };
}

/** The one answer of every group route. */
export function groupResponse(view: GroupView, pilotId: string, justCreatedByOther = false): WhatsappGroupResponse {
  const { group, status, expired } = view;
  return {
    group: group
      ? { ...group, status, isExpired: expired, justCreatedByOther, isCreator: group.createdByPilotId === pilotId }
      : null,
    status,
    isExpired: expired,
    groupName: group?.groupName ?? whatsappGroupName(view.trip),
    message: expired ? (group ? W.endedLink : W.endedCreate) : null,
  };
}

/** Only the creator may set the link, cancel or delete (pilot-app section 6). */
export function requireCreator(view: GroupView, pilotId: string): NonNullable<GroupView['group']> {
  if (!view.group) throw notFound(W.noGroup);
  if (view.group.createdByPilotId !== pilotId) throw forbidden(W.creatorOnly);
  return view.group;
}
