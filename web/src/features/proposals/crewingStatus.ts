import type { SwapAgreement } from '@crewswap/proto';

/** What the pilot reads about an agreement: crewing decides at its desk, the app only tells (issue 53). */
export function crewingStatus(agreement: Pick<SwapAgreement, 'status' | 'reason'>): string {
  switch (agreement.status) {
    case 'agreed':
      return 'Waiting for crewing';
    case 'approved':
      return 'Approved by crewing';
    case 'refused':
      return agreement.reason ? `Refused by crewing: ${agreement.reason}` : 'Refused by crewing';
    case 'cancelled':
      return 'Cancelled';
  }
}
