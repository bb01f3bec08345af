import { ROSTER_MAX_EVENTS, ROSTER_MAX_RECURRENCE_DATES } from '@crewswap/proto';
import { RosterError } from './calendar';
import { parseRoster, type ParsedRoster } from './parse-roster';

/**
 * One roster file, from text to trips, with the limits checked first: a real roster holds a few
 * hundred events and repeats none of them, and a file past a limit is refused before the parser
 * spends time on it. Counted on unfolded lines, so a folded `BEGIN:VEVENT` counts too. A repeating
 * event is read as its first occurrence, never expanded: of a repeat, only the dates it adds or
 * leaves out (RDATE, EXDATE) are counted.
 */
export function readRosterFile(text: string, base: string | null | undefined): ParsedRoster {
  const unfolded = text.replace(/\r?\n[ \t]/g, '');
  const events = unfolded.match(/^BEGIN:VEVENT[ \t]*\r?$/gim)?.length ?? 0;
  if (events > ROSTER_MAX_EVENTS) throw new RosterError('TOO_MANY_EVENTS');
  let recurrenceDates = 0;
  for (const [, values] of unfolded.matchAll(/^(?:RDATE|EXDATE)(?:;[^:\r\n]*)?:([^\r\n]*)/gim)) recurrenceDates += values!.split(',').length;
  if (recurrenceDates > ROSTER_MAX_RECURRENCE_DATES) throw new RosterError('TOO_MANY_RECURRENCE_DATES');
  return parseRoster(text, { base });
}
