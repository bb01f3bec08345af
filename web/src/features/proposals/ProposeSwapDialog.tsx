import { Input } from 'antd';
import { useState } from 'react';
import { MAX_PROPOSAL_NOTE } from '@crewswap/proto/browser';
import type { SwapMatch, Trip } from '@crewswap/proto';
import './proposals.css';
import { useProposeSwap } from '../../api/proposals';
import { AppModal, okAction } from '../../shared/AppModal';
import { Details } from '../../shared/Details';
import { formatRange } from '../../shared/format';
import { LegalityTag } from '../../shared/LegalityTag';
import { toast } from '../../shared/toast';
import { MonthPanel } from './MonthPanel';

const tripText = (trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'aircraft'>) =>
  `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}${trip.aircraft ? ` · ${trip.aircraft}` : ''}`;

/** Propose Swap: my trip (the one Find swaps was pressed on) for the offered one, with an optional note. */
export default function ProposeSwapDialog({ myTrip, match, onClose }: { myTrip: Trip; match: SwapMatch; onClose: () => void }) {
  const [note, setNote] = useState('');
  const propose = useProposeSwap();
  const send = () =>
    propose.mutate(
      { offeredTripId: match.trip.id, myTripId: myTrip.id, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          toast.success('Proposal Sent', `${match.pilot.firstName} ${match.pilot.lastName} has been told about your proposal.`);
          onClose();
        },
      },
    );
  return (
    <AppModal title="Propose Swap" onCancel={onClose} {...okAction('Propose Swap', send, propose)}>
      <Details
        rows={[
          ['You give', `${tripText(myTrip)} · ${formatRange(myTrip.startDate, myTrip.endDate)}`],
          ['You take', `${tripText(match.trip)} · ${formatRange(match.trip.startDate, match.trip.endDate)}`],
          ['Pilot', `${match.pilot.rank} ${match.pilot.firstName} ${match.pilot.lastName}`],
        ]}
      />
      <div className="proposal-legality" aria-label="Flight time limits">
        <LegalityTag legality={match} />
      </div>
      <MonthPanel query={{ month: match.trip.startDate.slice(0, 7), with: match.trip.id, without: myTrip.id }} />
      <label className="proposal-note">
        Note (optional)
        <Input.TextArea value={note} onChange={(event) => setNote(event.target.value)} maxLength={MAX_PROPOSAL_NOTE} showCount rows={3} aria-label="Note" />
      </label>
    </AppModal>
  );
}
