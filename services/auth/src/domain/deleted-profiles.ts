import { daysBetween, type DeletedPilotLookup } from '@crewswap/proto';
import type { DeletedPilot, DeletedPilotRepository } from '../data/deleted-pilots';

/** A self-deleted profile may be restored, and its employee ID is held, for this long. */
export const COOLING_OFF_DAYS = 30;

export function coolingOffDaysLeft(record: DeletedPilot, today: string): number {
  return Math.max(0, COOLING_OFF_DAYS - daysBetween(record.deletedOn, today));
}

/** The latest deletion of this employee ID while it may still be restored. */
export async function restorable(deleted: DeletedPilotRepository, employeeId: string, today: string): Promise<(DeletedPilot & { daysRemaining: number }) | undefined> {
  if (!/^\d{6}$/.test(employeeId)) return undefined;
  const record = await deleted.latestByEmployeeId(employeeId);
  if (!record) return undefined;
  const daysRemaining = coolingOffDaysLeft(record, today);
  return daysRemaining > 0 ? { ...record, daysRemaining } : undefined;
}

export async function lookupDeletedPilot(deleted: DeletedPilotRepository, employeeId: string, today: string): Promise<DeletedPilotLookup> {
  const record = await restorable(deleted, employeeId.trim(), today);
  if (!record) return { exists: false };
  const { firstName, lastName, email, rank, fleet, daysRemaining } = record;
  return { exists: true, pilot: { firstName, lastName, employeeId: record.employeeId, email, rank, fleet, daysRemaining } };
}
