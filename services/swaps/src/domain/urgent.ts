import { addDays, URGENT_HOURS } from '@crewswap/proto';

/**
 * An offer is urgent when it starts within 48 hours. Trips carry dates, not times, so that is a
 * start no later than the day after tomorrow (clock.today(), the Europe/London date). The one
 * place this is decided: alerts, Find swaps and the digest all ask it.
 */
export function isUrgentOffer(startDate: string, today: string): boolean {
  return startDate >= today && startDate <= addDays(today, URGENT_HOURS / 24);
}
