/**
 * Whether a pilot wants swap alerts. Those preferences belong to the notifications service; until
 * swaps keeps a projection of them (a later issue), every pilot has swap alerts on. This is the
 * one seam that projection replaces (with a join in the recipients query once it is a table).
 */
export function recipientHasSwapAlertsOn(_pilotId: string): boolean {
  return true;
}
