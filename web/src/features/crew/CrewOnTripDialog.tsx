import './crew.css';
import { Alert, Spin } from 'antd';
import type { Pilot, Trip } from '@crewswap/proto';
import { useTripPilots } from '../../api/crew';
import { AppModal } from '../../shared/AppModal';
import { formatRange } from '../../shared/format';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import { CrewList } from './CrewList';
import { WhatsAppGroupSection } from './WhatsAppGroupSection';

/** Crew on Trip: the other pilots on the trip's flights and dates, and the trip's WhatsApp group. */
export default function CrewOnTripDialog({ trip, me, onClose }: { trip: Trip; me: Pilot; onClose: () => void }) {
  const pilots = useTripPilots(trip.id);
  return (
    <AppModal title="Crew on Trip" onCancel={onClose} width={560}>
      <p className="crew-trip">
        <strong>
          {trip.flightNoStart}/{trip.flightNoEnd} {trip.route}
        </strong>{' '}
        <span className="muted">{formatRange(trip.startDate, trip.endDate)}</span>
      </p>
      {pilots.isLoading && (
        <div role="status" className="crew-loading">
          <Spin size="small" /> Loading pilots...
        </div>
      )}
      {pilots.isError && <Alert type="error" showIcon title="Failed to fetch pilots on this trip." />}
      {waitsForNetwork(pilots) && <NotKept what="The crew of this trip" />}
      {pilots.data && <CrewList crew={pilots.data} me={me} trip={trip} />}
      <WhatsAppGroupSection trip={trip} me={me} />
    </AppModal>
  );
}
