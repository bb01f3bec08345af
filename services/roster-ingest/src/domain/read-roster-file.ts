import { ROSTER_MAX_EVENTS } from '@crewswap/proto';
import { RosterError } from './calendar';
import { parseRoster, type ParsedRoster } from './parse-roster';

/**
 * One roster file, from text to trips, with the limit checked first: a real roster holds a few
 * hundred events, and a file of tens of thousands is refused before the parser spends seconds on
 * it. Events are counted on unfolded lines, so a folded `BEGIN:VEVENT` counts too.
 */
export function readRosterFile(text: string, base: string | null | undefined): ParsedRoster {
  const events = text.replace(/\r?\n[ \t]/g, '').match(/^BEGIN:VEVENT[ \t]*\r?$/gim)?.length ?? 0;
  if (events > ROSTER_MAX_EVENTS) throw new RosterError('TOO_MANY_EVENTS');
  return parseRoster(text, { base });
}
