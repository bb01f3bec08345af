import { addDays, type Trip } from '@crewswap/proto';
import { swapStateOf } from './swap-state';

/**
 * A pilot's trips as an iCalendar (RFC 5545), written by hand: a few properties of all-day
 * events need no library, and every rule they need is here (escaping, folding, CRLF).
 *
 * No METHOD property: without one, an event's DTSTAMP is when it last changed in the store
 * (RFC 5545 3.8.7.2), so it is the trip's `updatedAt` and the same trips always give the same
 * text, which is what lets the feed answer 304.
 */
export function tripsCalendar(input: { name: string; trips: { trip: Trip; version: number; agreed?: boolean }[] }): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//CrewSwap//Trips feed//EN',
    'CALSCALE:GREGORIAN',
    `X-WR-CALNAME:${text(input.name)}`,
    // How often calendar apps that read these (Apple, Outlook) should look again.
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const { trip, version, agreed = false } of input.trips) lines.push(...tripEvent(trip, version, agreed));
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

/** The event's title: the swap state first, since a phone's calendar cuts long titles short. */
export function tripTitle(trip: Trip, agreed = false): string {
  const state = swapStateOf(trip, agreed);
  const flights = trip.flightNoStart === trip.flightNoEnd ? trip.flightNoStart : `${trip.flightNoStart}/${trip.flightNoEnd}`;
  return `${state ? `${state} · ` : ''}${flights} ${trip.route}`;
}

export function tripDescription(trip: Trip, agreed = false): string {
  const state = swapStateOf(trip, agreed);
  return [
    `Flights: ${trip.flightNoStart} out, ${trip.flightNoEnd} back`,
    `Route: ${trip.route}`,
    trip.aircraft && `Aircraft: ${trip.aircraft}`,
    trip.isStandby && 'Standby',
    trip.training && 'Training',
    state && `Swap: ${state}${trip.swapDescription ? ` (${trip.swapDescription})` : ''}`,
    trip.icsDescription && `Duty: ${trip.icsDescription}`,
  ]
    .filter(Boolean)
    .join('\n');
}

function tripEvent(trip: Trip, version: number, agreed: boolean): string[] {
  return [
    'BEGIN:VEVENT',
    // The trip's id for good: a calendar updates the event it has instead of adding another.
    `UID:${trip.id}@crewswap`,
    `DTSTAMP:${utc(trip.updatedAt)}`,
    `LAST-MODIFIED:${utc(trip.updatedAt)}`,
    `SEQUENCE:${version - 1}`,
    `DTSTART;VALUE=DATE:${day(trip.startDate)}`,
    // An all-day event ends the day after its last day (DTEND is exclusive).
    `DTEND;VALUE=DATE:${day(addDays(trip.endDate, 1))}`,
    `SUMMARY:${text(tripTitle(trip, agreed))}`,
    `DESCRIPTION:${text(tripDescription(trip, agreed))}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
  ];
}

const day = (date: string) => date.replace(/-/g, '');

/** 2026-11-01T12:00:00.000Z -> 20261101T120000Z */
const utc = (iso: string) => `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;

/** A TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks escaped. */
export function text(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n|\r/g, '\\n');
}

/**
 * Lines longer than 75 octets are folded: a CRLF and a space before each further part (RFC 5545
 * 3.1), never inside a character's UTF-8 bytes.
 */
export function fold(line: string): string {
  // A UTF-16 unit is at most 3 octets in UTF-8: most lines are known short without counting.
  if (line.length <= 25 || (line.length <= 75 && ASCII.test(line))) return line;
  const parts: string[] = [];
  let from = 0;
  let octets = 0;
  for (let at = 0; at < line.length; ) {
    const code = line.codePointAt(at)!;
    const units = code > 0xffff ? 2 : 1;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    // The first part holds 75 octets; the others 74 after their leading space.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(line.slice(from, at));
      from = at;
      octets = 0;
    }
    octets += size;
    at += units;
  }
  parts.push(line.slice(from));
  return parts.join('\r\n ');
}

const ASCII = /^[\x00-\x7f]*$/;
