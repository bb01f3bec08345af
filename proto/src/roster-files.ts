/** Roster file rules shared by the server and the browser (zod-free: the browser bundle takes it). */
export const ROSTER_MAX_BYTES = 10 * 1024 * 1024;
export const ROSTER_FILE_TOO_LARGE = 'File size must be less than 10MB';
export const ROSTER_UNSUPPORTED_EXTENSION = 'Only calendar files with .ics, .ics_, or .cal extensions are supported';

/** True when a file name carries one of the calendar extensions the spec accepts. */
export function isRosterFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.includes('.ics') || lower.includes('.cal');
}

/** Where a roster came from: a file the pilot uploaded, a mail, or a fetch of the pilot's roster address. */
export const ROSTER_SOURCES = ['email', 'manual_upload', 'subscription'] as const;

/** The words of a roster import's changes: '3 added, 1 changed, 2 removed'. */
export const rosterChangeSummary = (added: number, changed: number, removed: number) => `${added} added, ${changed} changed, ${removed} removed`;

/**
 * What a roster that changed on its own (a fetch of the pilot's roster address) is told with, by
 * push, bell and in an open app: 'Your roster changed: 1 added, 1 removed'.
 */
export function rosterChangedTitle(counts: { addedCount: number; changedCount: number; removedCount: number }): string {
  const parts: string[] = [];
  if (counts.addedCount > 0) parts.push(`${counts.addedCount} added`);
  if (counts.changedCount > 0) parts.push(`${counts.changedCount} changed`);
  if (counts.removedCount > 0) parts.push(`${counts.removedCount} removed`);
  return `Your roster changed: ${parts.join(', ')}`;
}
