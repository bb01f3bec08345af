import { z } from 'zod';
import { Aircraft, Fleet, IsoDate, Rank } from './common';
import { WHATSAPP_GROUP_STATUSES, WHATSAPP_INVITE_LINK, WHATSAPP_MESSAGES } from './crew-rules';
import { PilotContact } from './pilot';
import { Trip } from './trip';

export * from './crew-rules';

/**
 * Another pilot rostered on the same flight and start date (pilot-app section 3: id, rank, names,
 * fleet, ltc, apic, phone and their trip flags). Standby duties have no crew.
 */
export const CrewMember = PilotContact.extend({
  /** The crew member's own trip on this flight and its flags. */
  tripId: z.uuid(),
  isSwappable: z.boolean(),
  training: z.boolean(),
  /** The Keep flag. */
  requested: z.boolean(),
  companions: z.number().int().nullable(),
});
export type CrewMember = z.infer<typeof CrewMember>;

/** `GET /api/trips/{id}/pilots`: sorted CP, FO, SO, JFO, then employee id. */
export const TripPilotsResponse = z.array(CrewMember);
export type TripPilotsResponse = z.infer<typeof TripPilotsResponse>;

/** A trip in `GET /api/trips?includeCrew=true`: the trip and its crew (empty for standby). */
export const TripWithCrew = Trip.extend({ crew: z.array(CrewMember) });
export type TripWithCrew = z.infer<typeof TripWithCrew>;
export const TripListWithCrewResponse = z.array(TripWithCrew);
export type TripListWithCrewResponse = z.infer<typeof TripListWithCrewResponse>;

/** `GET /api/master-calendar/{rank}/{fleet}`. */
export const MasterCalendarParams = z.strictObject({ rank: Rank, fleet: Fleet });
export type MasterCalendarParams = z.infer<typeof MasterCalendarParams>;

/** What the Master Calendar shows of a trip: its bar (route, dates, colour flags) and tooltip (flights). */
export const MasterCalendarTrip = Trip.pick({
  id: true,
  flightNoStart: true,
  flightNoEnd: true,
  route: true,
  startDate: true,
  endDate: true,
  isSwappable: true,
  requested: true,
  training: true,
  isStandby: true,
});
export type MasterCalendarTrip = z.infer<typeof MasterCalendarTrip>;
/** What the Master Calendar shows of a pilot: the row's name, rank and fleet. */
export const MasterCalendarPilot = PilotContact.pick({ id: true, firstName: true, lastName: true, rank: true, fleet: true });
export type MasterCalendarPilot = z.infer<typeof MasterCalendarPilot>;

/** One trip of one pilot in the Master Calendar, slimmed to what the calendar shows. */
export const MasterCalendarEntry = z.object({ trip: MasterCalendarTrip, pilot: MasterCalendarPilot });
export type MasterCalendarEntry = z.infer<typeof MasterCalendarEntry>;

/**
 * The pilots of that rank who fly the fleet's aircraft (the same fleet first, then by fleet, last
 * name, first name), each pilot's trips by start date; only trips overlapping the window (the 1st
 * of this month to the 7th of month+2, Europe/London) and only pilots with Master Roster on. The
 * same list for every caller (so it is served from one shared, compressed copy with an ETag): the
 * app puts the caller's own row first from the trips it holds. Master Roster off gets 403.
 */
export const MasterCalendarResponse = z.array(MasterCalendarEntry);
export type MasterCalendarResponse = z.infer<typeof MasterCalendarResponse>;

/** A crossover pilot as the group's crew list shows them (rank, name, tags, WhatsApp chat). */
export const CrossoverPilot = CrewMember.pick({
  id: true,
  firstName: true,
  lastName: true,
  phone: true,
  rank: true,
  fleet: true,
  apic: true,
  ltc: true,
  isSwappable: true,
  training: true,
  requested: true,
});
export type CrossoverPilot = z.infer<typeof CrossoverPilot>;

/**
 * A crossover: other pilots' trips (Master Roster on) to a destination of one of the caller's
 * trips while the caller is there, grouped by flights and dates. The caller's own crew (same
 * flight and start date) is not a crossover.
 */
export const CrossoverTripGroup = z.object({
  flightNumber: z.string(),
  flightNumberEnd: z.string(),
  destination: z.string(),
  aircraft: Aircraft.nullable(),
  startDate: IsoDate,
  endDate: IsoDate,
  /** The caller's trips this group crosses. */
  crossesTripIds: z.array(z.uuid()),
  /** Sorted like a crew list; the calendar shows its length as the pilot count. */
  pilots: z.array(CrossoverPilot),
});
export type CrossoverTripGroup = z.infer<typeof CrossoverTripGroup>;
/** `GET /api/crossover-trips`: groups by start date, then flight number. 403 with Master Roster off. */
export const CrossoverTripsResponse = z.array(CrossoverTripGroup);
export type CrossoverTripsResponse = z.infer<typeof CrossoverTripsResponse>;

/**
 * `GET /api/usual-requests/search?date&flightNumber&destination`. The route checks and answers the
 * spec's messages (SEARCH_MESSAGES) as 400 `{error, title}`: a flight number is VS plus exactly 3
 * digits; a destination is 3 letters or AAA-BBB, each code in the IATA list; at least one of
 * the two; a date always. Query values are strings; shaping (uppercase) happens on the server too.
 */
export const UsualRequestsQuery = z.strictObject({
  date: z.string().max(20).optional(),
  flightNumber: z.string().max(20).optional(),
  destination: z.string().max(20).optional(),
});
export type UsualRequestsQuery = z.infer<typeof UsualRequestsQuery>;

/**
 * One flight on the searched date and the crew who hold it (Master Roster on): a trip matches a
 * flight number when its start flight departs on the date or its end flight returns on it, and a
 * destination when its route holds every searched outstation and its dates cover the date.
 */
export const UsualRequestResult = z.object({
  flightNoStart: z.string(),
  flightNoEnd: z.string(),
  route: z.string(),
  aircraft: Aircraft.nullable(),
  startDate: IsoDate,
  endDate: IsoDate,
  /** The roster duty text of one of the crew's trips, for the duty details. */
  icsDescription: z.string().nullable(),
  crew: z.array(CrewMember),
});
export type UsualRequestResult = z.infer<typeof UsualRequestResult>;

/** `message`/`title` carry 'No Results' when nothing matched. */
export const UsualRequestsResponse = z.object({
  results: z.array(UsualRequestResult),
  title: z.string().nullable(),
  message: z.string().nullable(),
});
export type UsualRequestsResponse = z.infer<typeof UsualRequestsResponse>;

/**
 * `GET /api/stats`: the caller's trip counts (refreshed after a roster upload) and how many pilots
 * and offers the community holds; today is Europe/London.
 */
export const PilotStats = z.object({
  today: IsoDate,
  myTrips: z.object({
    total: z.number().int().min(0),
    upcoming: z.number().int().min(0),
    offered: z.number().int().min(0),
    kept: z.number().int().min(0),
    standby: z.number().int().min(0),
    uploaded: z.number().int().min(0),
    nextTripDate: IsoDate.nullable(),
  }),
  community: z.object({
    pilots: z.number().int().min(0),
    masterRosterPilots: z.number().int().min(0),
    upcomingTrips: z.number().int().min(0),
    offeredTrips: z.number().int().min(0),
    activeWhatsappGroups: z.number().int().min(0),
  }),
});
export type PilotStats = z.infer<typeof PilotStats>;

export const WhatsappGroupStatus = z.enum(WHATSAPP_GROUP_STATUSES);
export type WhatsappGroupStatus = z.infer<typeof WhatsappGroupStatus>;

/**
 * A trip's WhatsApp group, shared by every crew member of the flight and start date.
 * `status`: pending (created, no link yet), active (has its invite link), claimable (its creator
 * is no longer on the trip; another crew member may claim it), expired (the trip has ended).
 */
export const WhatsappGroup = z.object({
  id: z.uuid(),
  status: WhatsappGroupStatus,
  groupName: z.string(),
  inviteLink: z.string().nullable(),
  createdByPilotId: z.uuid(),
  creatorName: z.string(),
  flightNoStart: z.string(),
  startDate: IsoDate,
  endDate: IsoDate,
  isExpired: z.boolean(),
  /** Answer to a create when another crew member had created the group first. */
  justCreatedByOther: z.boolean(),
  /** The caller is its creator: may set the link, cancel or delete. */
  isCreator: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WhatsappGroup = z.infer<typeof WhatsappGroup>;

/**
 * Every group answer (GET, POST, PATCH, claim): the group or null, the state for the dialog, the
 * name to give a new group, and the ended-trip message when the trip has ended.
 */
export const WhatsappGroupResponse = z.object({
  group: WhatsappGroup.nullable(),
  status: WhatsappGroupStatus,
  isExpired: z.boolean(),
  /** The name a new group should get (also the group's name once created). */
  groupName: z.string(),
  /** 'This trip has ended. The group link may no longer be active.' (or the create message) when expired. */
  message: z.string().nullable(),
});
export type WhatsappGroupResponse = z.infer<typeof WhatsappGroupResponse>;

/** The spec's create body; the server decides all three (creator = caller), so they are only accepted. */
export const CreateWhatsappGroupBody = z.strictObject({
  createdByPilotId: z.uuid().optional(),
  creatorName: z.string().max(200).optional(),
  justCreatedByOther: z.boolean().optional(),
});
export type CreateWhatsappGroupBody = z.infer<typeof CreateWhatsappGroupBody>;

export const UpdateWhatsappGroupBody = z.strictObject({
  inviteLink: z
    .string(WHATSAPP_MESSAGES.linkBlank)
    .max(300, WHATSAPP_MESSAGES.linkInvalid)
    .trim()
    .min(1, WHATSAPP_MESSAGES.linkBlank)
    .regex(WHATSAPP_INVITE_LINK, WHATSAPP_MESSAGES.linkInvalid),
});
export type UpdateWhatsappGroupBody = z.infer<typeof UpdateWhatsappGroupBody>;

/** Data of every `trips.whatsapp.group.*` event. */
export const WhatsappGroupEvent = z.object({
  groupId: z.uuid(),
  groupName: z.string(),
  flightNoStart: z.string(),
  startDate: IsoDate,
  endDate: IsoDate,
  inviteLink: z.string().nullable(),
  createdByPilotId: z.uuid(),
  creatorName: z.string(),
  /** Who did it (the creator, the claimer, the deleter). */
  actorPilotId: z.uuid(),
  /** The crew members (other than the actor) told by push. */
  crewPilotIds: z.array(z.uuid()),
});
export type WhatsappGroupEvent = z.infer<typeof WhatsappGroupEvent>;
