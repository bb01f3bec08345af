import { Button, Tag } from 'antd';
import { pilotName } from '@crewswap/proto/browser';
import type { Trip } from '@crewswap/proto';
import './proposals.css';
import { useAgreements, useProposals } from '../../api/proposals';
import { crewingStatus } from './crewingStatus';

/**
 * A trip card's swap line: the open proposals for this offered trip (a count that opens the
 * Proposals list), or the agreed swap it is in, with the other pilot's name.
 */
export default function TripSwapStatus({ trip, onOpen }: { trip: Trip; onOpen: () => void }) {
  const proposals = useProposals();
  const agreements = useAgreements();
  const agreement = agreements.data?.find((a) => ['agreed', 'approved'].includes(a.status) && (a.proposer.trip?.id === trip.id || a.owner.trip.id === trip.id));
  if (agreement) {
    // The trip's holder is one of the two (before or after crewing moved it): the other is named.
    const other = agreement.proposer.pilot.id === trip.pilotId ? agreement.owner : agreement.proposer;
    return (
      <div className="trip-swap-status">
        <Tag color={agreement.status === 'approved' ? 'green' : 'gold'}>{crewingStatus(agreement)}</Tag>
        <Button size="small" type="link" onClick={onOpen}>
          with {pilotName(other)}
        </Button>
      </div>
    );
  }
  const open = proposals.data?.filter((p) => p.role === 'received' && p.status === 'open' && p.owner.trip.id === trip.id).length ?? 0;
  if (open === 0) return null;
  return (
    <div className="trip-swap-status">
      <Button size="small" type="primary" ghost onClick={onOpen} aria-label={`${open} swap ${open === 1 ? 'proposal' : 'proposals'} for this trip`}>
        {open} swap {open === 1 ? 'proposal' : 'proposals'}
      </Button>
    </div>
  );
}
