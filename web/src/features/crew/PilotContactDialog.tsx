import { WhatsAppOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Pilot, PilotContact, Trip } from '@crewswap/proto';
import { pilotContactPath } from '@crewswap/proto/browser';
import { useProductName } from '../../api/auth';
import { errorMessage, request } from '../../api/client';
import { queryKeys } from '../../api/keys';
import { AppModal } from '../../shared/AppModal';
import { Details } from '../../shared/Details';
import { toast } from '../../shared/toast';
import { whatsappLink } from '../find-swaps/whatsapp';
import { crewGreeting } from './greeting';

const RANK_NAMES: Record<string, string> = { CP: 'Captain', FO: 'First Officer', SO: 'Second Officer', JFO: 'Junior First Officer' };

/** Who was tapped: a crew member carries their email; a calendar bar only the name, rank and fleet. */
export type ContactPilot = Pick<PilotContact, 'id' | 'firstName' | 'lastName' | 'rank' | 'fleet'> & Partial<Pick<PilotContact, 'email' | 'phone'>>;

/**
 * The pilot contact view (pilot spec, Dialogs): name, rank, fleet, email, phone and a WhatsApp chat
 * about the trip tapped. A pilot known only from a calendar is read from the server, which applies
 * the calendars' visibility rules.
 */
export default function PilotContactDialog({ pilot, me, trip, onClose }: { pilot: ContactPilot; me: Pilot; trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'startDate' | 'endDate'>; onClose: () => void }) {
  const productName = useProductName();
  const known = pilot.email !== undefined;
  const fetched = useQuery({
    queryKey: queryKeys.pilotContact(pilot.id),
    queryFn: () => request<PilotContact>(pilotContactPath(pilot.id)),
    enabled: !known,
  });
  const contact: ContactPilot | undefined = known ? pilot : fetched.data;
  const name = `${pilot.firstName} ${pilot.lastName}`;
  const link = contact ? whatsappLink(contact.phone, crewGreeting(me, pilot, trip, productName)) : null;

  const copyEmail = async (email: string) => {
    try {
      await navigator.clipboard.writeText(email);
      toast.success('Email copied to clipboard');
    } catch {
      toast.error('Copy failed');
    }
  };

  return (
    <AppModal title="Pilot Contact" onCancel={onClose}>
      <Details
        rows={[
          ['Pilot', name],
          ['Rank', RANK_NAMES[pilot.rank] ?? pilot.rank],
          ['Fleet', pilot.fleet],
          [
            'Email',
            contact?.email && (
              <Button type="link" className="inline-link" onClick={() => void copyEmail(contact.email!)} aria-label={`Copy email ${contact.email}`}>
                {contact.email}
              </Button>
            ),
          ],
          ['Phone', contact?.phone && <a href={`tel:${contact.phone}`}>{contact.phone}</a>],
        ]}
      />
      {fetched.isLoading && <Spin />}
      {fetched.isError && <Alert type="error" showIcon title={errorMessage(fetched.error)} />}
      {link && (
        <Button type="primary" block icon={<WhatsAppOutlined />} href={link} target="_blank" rel="noreferrer" className="whatsapp-link">
          Chat on WhatsApp
        </Button>
      )}
    </AppModal>
  );
}
