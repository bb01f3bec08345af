// TEMPORARY until crew23s's proto lands: the shapes the spec names for crew, groups and calendars.
import type { PilotContact, Trip } from '@crewswap/proto';

export type CrewMember = Pick<PilotContact, 'id' | 'employeeId' | 'rank' | 'firstName' | 'lastName' | 'fleet' | 'ltc' | 'apic' | 'phone'> & {
  isSwappable: boolean;
  requested: boolean;
  training: boolean;
};
export type WhatsAppGroupStatus = 'none' | 'pending' | 'active' | 'claimable' | 'expired';
export interface WhatsAppGroup {
  status: WhatsAppGroupStatus;
  groupName: string;
  inviteLink: string | null;
  createdByPilotId: string | null;
  creatorName: string | null;
  isExpired: boolean;
  justCreatedByOther: boolean;
}
export interface WhatsAppGroupResponse {
  group: WhatsAppGroup | null;
  groupName: string;
  isExpired: boolean;
}
export interface MasterCalendarEntry {
  trip: Trip;
  pilot: PilotContact;
}
export interface CrossoverGroup {
  flightNumber: string;
  flightNumberEnd: string;
  destination: string;
  startDate: string;
  endDate: string;
  pilots: CrewMember[];
}
export type TripWithCrew = Trip & { crew: CrewMember[] };
