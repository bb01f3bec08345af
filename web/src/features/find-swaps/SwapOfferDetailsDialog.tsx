import { Button } from 'antd';
import type { Pilot, SwapMatch } from '@crewswap/proto';
import { useProductName } from '../../api/auth';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import { formatRange } from '../trips/format';
import { swapGreeting, whatsappLink } from './whatsapp';

const RANK_NAMES: Record<string, string> = { CP: 'Captain', FO: 'First Officer', SO: 'Second Officer', JFO: 'Junior First Officer' };

/** Swap Offer Details: the offered trip and how to reach the pilot who offers it. */
export default function SwapOfferDetailsDialog({ match, me, onClose }: { match: SwapMatch; me: Pilot; onClose: () => void }) {
  const productName = useProductName();
  const { trip, pilot } = match;
  const link = whatsappLink(pilot.phone, swapGreeting(me, pilot, trip, productName));

  const copyEmail = async () => {
    try {
      await navigator.clipboard.writeText(pilot.email);
      toast.success('Email copied to clipboard');
    } catch {
      toast.error('Copy failed');
    }
  };

  return (
    <AppModal open title="Swap Offer Details" onCancel={onClose} footer={<Button onClick={onClose}>Close</Button>}>
      <dl className="details">
        <dt>Pilot</dt>
        <dd>
          {pilot.firstName} {pilot.lastName}
        </dd>
        <dt>Rank</dt>
        <dd>{RANK_NAMES[pilot.rank] ?? pilot.rank}</dd>
        <dt>Fleet / Base</dt>
        <dd>
          {pilot.fleet} · {pilot.base}
        </dd>
        <dt>Trip</dt>
        <dd>
          {trip.flightNoStart}/{trip.flightNoEnd} {trip.route}
          {trip.aircraft ? ` · ${trip.aircraft}` : ''}
        </dd>
        <dt>Dates</dt>
        <dd>{formatRange(trip.startDate, trip.endDate)}</dd>
        {trip.swapDescription && (
          <>
            <dt>Looking for</dt>
            <dd>{trip.swapDescription}</dd>
          </>
        )}
        <dt>Email</dt>
        <dd>
          <Button type="link" className="inline-link" onClick={copyEmail} aria-label={`Copy email ${pilot.email}`}>
            {pilot.email}
          </Button>
        </dd>
        {pilot.phone && (
          <>
            <dt>Phone</dt>
            <dd>{pilot.phone}</dd>
          </>
        )}
      </dl>
      {link && (
        <Button type="primary" block href={link} target="_blank" rel="noreferrer" className="whatsapp-link">
          Chat on WhatsApp
        </Button>
      )}
    </AppModal>
  );
}
