import './crew.css';
import { WhatsAppOutlined } from '@ant-design/icons';
import { Button, Empty, Tag } from 'antd';
import { useState } from 'react';
import type { CrossoverPilot, Pilot, Trip } from '@crewswap/proto';
import { useProductName } from '../../api/auth';
import { PilotTags } from '../../shared/PilotTags';
import { whatsappLink } from '../find-swaps/whatsapp';
import { crewGreeting } from './greeting';
import PilotContactDialog, { type ContactPilot } from './PilotContactDialog';

interface Props {
  /** Crew on Trip and Trip Search give whole crew members; a crossover only what this list shows. */
  crew: readonly CrossoverPilot[];
  me: Pilot;
  /** The trip the crew share, named in the greeting. */
  trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'startDate' | 'endDate'>;
  empty?: string;
}

/**
 * Pilots on a trip: rank, name, tags and a WhatsApp chat link with a greeting when they have a
 * phone; tapping a pilot opens their contact view.
 */
export function CrewList({ crew, me, trip, empty = 'No other pilots found on this trip.' }: Props) {
  const productName = useProductName();
  const [contact, setContact] = useState<ContactPilot | null>(null);
  if (crew.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <>
      <ul className="crew-list">
        {crew.map((member) => {
          const name = `${member.firstName} ${member.lastName}`;
          const link = whatsappLink(member.phone, crewGreeting(me, member, trip, productName));
          return (
            <li key={member.id} className="crew-row" aria-label={`${member.rank} ${name}`}>
              <span className="crew-rank">{member.rank}</span>
              <button type="button" className="crew-who" aria-label={`Contact ${name}`} onClick={() => setContact(member)}>
                <span className="crew-name">{name}</span>
                <span className="crew-tags">
                  <Tag>{member.fleet}</Tag>
                  {member.ltc && <Tag color="gold">LTC</Tag>}
                  {member.rank === 'FO' && member.apic && <Tag color="geekblue">APIC</Tag>}
                  <PilotTags trip={member} />
                </span>
              </button>
              {link && (
                <Button
                  className="whatsapp-link crew-chat"
                  type="primary"
                  icon={<WhatsAppOutlined />}
                  href={link}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={`WhatsApp ${name}`}
                >
                  Chat
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {contact && <PilotContactDialog pilot={contact} me={me} trip={trip} onClose={() => setContact(null)} />}
    </>
  );
}
