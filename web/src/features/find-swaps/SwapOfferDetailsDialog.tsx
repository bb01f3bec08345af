import { Button } from 'antd';
import type { Pilot, SwapMatch } from '@crewswap/proto';
import { useProductName } from '../../api/auth';
import { AppModal } from '../../shared/AppModal';
import { Details } from '../../shared/Details';
import { toast } from '../../shared/toast';
import { formatRange } from '../../shared/format';
import { swapGreeting, whatsappLink } from './whatsapp';

const RANK_NAMES: Record<string, string> = { CP: 'Captain', FO: 'First Officer', SO: 'Second Officer', JFO: 'Junior First Officer' };

/** Swap Offer Details: the offered trip and how to reach the pilot who offers it. */
export default function SwapOfferDetailsDialog({ match, me, onClose, onPropose }: { match: SwapMatch; me: Pilot; onClose: () => void; onPropose?: () => void }) {
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
    <AppModal title="Swap Offer Details" onCancel={onClose}>
      <Details
        rows={[
          ['Pilot', `${pilot.firstName} ${pilot.lastName}`],
          ['Rank', RANK_NAMES[pilot.rank] ?? pilot.rank],
          ['Fleet / Base', `${pilot.fleet} · ${pilot.base}`],
          ['Trip', `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}${trip.aircraft ? ` · ${trip.aircraft}` : ''}`],
          ['Dates', formatRange(trip.startDate, trip.endDate)],
          ['Looking for', trip.swapDescription],
          [
            'Email',
            <Button type="link" className="inline-link" onClick={copyEmail} aria-label={`Copy email ${pilot.email}`}>
              {pilot.email}
            </Button>,
          ],
          ['Phone', pilot.phone],
        ]}
      />
      {onPropose && (
        <Button type="primary" block onClick={onPropose} className="propose-swap">
          Propose Swap
        </Button>
      )}
      {link && (
        <Button type="primary" block href={link} target="_blank" rel="noreferrer" className="whatsapp-link">
          Chat on WhatsApp
        </Button>
      )}
    </AppModal>
  );
}
