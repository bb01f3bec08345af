/** Roster file rules shared by the server and the browser (zod-free: the browser bundle takes it). */
export const ROSTER_MAX_BYTES = 10 * 1024 * 1024;
export const ROSTER_FILE_TOO_LARGE = 'File size must be less than 10MB';
export const ROSTER_UNSUPPORTED_EXTENSION = 'Only calendar files with .ics, .ics_, or .cal extensions are supported';

/** True when a file name carries one of the calendar extensions the spec accepts. */
export function isRosterFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.includes('.ics') || lower.includes('.cal');
}

/** The words of a roster import's changes: '3 added, 1 changed, 2 removed'. */
export const rosterChangeSummary = (added: number, changed: number, removed: number) => `${added} added, ${changed} changed, ${removed} removed`;
