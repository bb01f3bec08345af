/**
 * Crew, calendar, trip search and WhatsApp group rules with no zod, so the browser can import
 * them (through `@crewswap/proto/browser`) and show the very messages the server answers.
 */

/** The spec's crew order (section 9): CP, FO, SO, JFO, then employee id. */
export const CREW_RANK_ORDER = ['CP', 'FO', 'SO', 'JFO'] as const;

/** Home bases are never a searched destination: 'LHR-JFK' searches trips to JFK. */
export const HOME_BASES = ['LHR', 'MAN'] as const;

/** The Trip Search messages (pilot-app section 5 and 8): title and text, copied verbatim. */
export const SEARCH_MESSAGES = {
  flightNumberTitle: 'Incomplete Flight Number',
  flightNumber: 'Flight number must be VS + exactly 3 digits (e.g. VS123).',
  routeFormatTitle: 'Invalid Route Format',
  routeFormat: 'Route must be either a 3-letter airport code (e.g. LHR) or route format (e.g. LHR-JFK).',
  unknownAirportTitle: 'Invalid Airport Code',
  unknownAirport: (code: string) => `${code} is not a valid IATA airport code in our database.`,
  criteriaTitle: 'Search Criteria Required',
  criteria: 'Please enter a complete flight number (VS + exactly 3 digits) and/or valid airport/route to search.',
  dateTitle: 'Date Required',
  date: 'Please select a date to search.',
  noResultsTitle: 'No Results',
  noResults: 'No trips found in the system that are accepting usual requests.',
} as const;

/** What a pilot with Master Roster off is told by Trip Search, Master and Crossover Calendar. */
export const MASTER_ROSTER_MESSAGES = {
  notAvailableTitle: 'Not Available',
  notAvailable: 'This feature needs Master Roster. Please enable Master Roster in your profile settings.',
} as const;

/**
 * The pilot contact view opened from a Master Calendar bar or a crossover crew row: for a pilot
 * the calendars show (Master Roster on, not deleted), to a caller with Master Roster on.
 */
export const pilotContactPath = (pilotId: string) => `/api/master-calendar/pilots/${pilotId}`;
export const PILOT_CONTACT_NOT_FOUND = 'Pilot not found';

/** The Crossover Calendar's texts (pilot-app section 2). */
export const CROSSOVER_MESSAGES = {
  noOwnTrips: 'Upload your roster to see crossover flights',
  none: 'No crossover flights found',
} as const;

/** The WhatsApp group messages (pilot-app sections 5, 6 and 8), verbatim where the spec gives them. */
export const WHATSAPP_MESSAGES = {
  linkBlank: 'Please paste the WhatsApp group invite link',
  linkInvalid: 'Invalid WhatsApp invite link',
  endedCreate: 'This trip has ended. Groups cannot be created for past trips.',
  endedLink: 'This trip has ended. The group link may no longer be active.',
  createFailed: 'Failed to create WhatsApp group',
  deleteFailed: 'Failed to delete WhatsApp group',
  claimFailed: 'Failed to claim WhatsApp group',
  creatorOnly: 'Only the pilot who created this WhatsApp group can change or delete it.',
  notClaimable: 'This WhatsApp group still has its creator on the trip and cannot be claimed.',
  noGroup: 'There is no WhatsApp group for this trip yet.',
  alreadyExists: 'A WhatsApp group already exists for this trip.',
  standby: 'Standby duties have no crew, so they have no WhatsApp group.',
} as const;

/**
 * A WhatsApp group invite link: https://chat.whatsapp.com/<code>, where the code is letters and
 * digits (WhatsApp's are 22 long; older ones shorter). An optional query (WhatsApp's share sheet
 * adds `?mode=...`) is allowed; anything else (another host, a script URL) is refused.
 */
export const WHATSAPP_INVITE_LINK = /^https:\/\/chat\.whatsapp\.com\/(?:invite\/)?[A-Za-z0-9]{10,40}\/?(?:\?[A-Za-z0-9=&_.-]{0,100})?$/;
/** System Settings' refusal of a Tech Support Group link that is neither blank nor an invite link. */
export const TECH_SUPPORT_LINK_MESSAGE = 'Please enter a WhatsApp group invite link (https://chat.whatsapp.com/...)';

/** The states of a trip's group (pilot-app section 4). Only pending and active are stored. */
export const WHATSAPP_GROUP_STATUSES = ['none', 'pending', 'active', 'claimable', 'expired'] as const;
export type WhatsappGroupStatus = (typeof WHATSAPP_GROUP_STATUSES)[number];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The name the creator gives the group in WhatsApp: flights, destination and start day, e.g.
 * 'VS003/VS004 JFK 12 Dec 2026'; short enough for WhatsApp's group subject.
 */
export function whatsappGroupName(trip: { flightNoStart: string; flightNoEnd: string; route: string; startDate: string }): string {
  const [year, month, day] = trip.startDate.split('-');
  const date = `${Number(day)} ${MONTHS[Number(month) - 1] ?? month} ${year}`;
  return [`${trip.flightNoStart}/${trip.flightNoEnd}`, trip.route, date].filter(Boolean).join(' ');
}

/**
 * The Master Calendar's window (pilot-app section 2): the first of this month to the 7th of
 * month+2, both inclusive, from a Europe/London `today`.
 */
export function masterCalendarWindow(today: string): { from: string; to: string } {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const endMonthIndex = month - 1 + 2;
  const endYear = year + Math.floor(endMonthIndex / 12);
  const endMonth = (endMonthIndex % 12) + 1;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { from: `${year}-${pad(month)}-01`, to: `${String(endYear).padStart(4, '0')}-${pad(endMonth)}-07` };
}
