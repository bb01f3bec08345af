import { CalendarOutlined, CloudUploadOutlined, CustomerServiceOutlined, FileSearchOutlined, GiftOutlined, LinkOutlined, LogoutOutlined, MenuOutlined, PlusOutlined, ReloadOutlined, StarOutlined, SwapOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { Pilot } from '@crewswap/proto';
import { useProductName } from '../../api/auth';
import { NEEDS_CONNECTION, useOnline } from '../../api/online';
import { useIsNarrow } from '../../shared/useIsNarrow';
import { BellButton } from '../bell/BellButton';

/** 'CP Jane Smith A350 LTC', 'FO John Doe APIC B787'. */
export function pilotLabel(pilot: Pick<Pilot, 'rank' | 'firstName' | 'lastName' | 'apic' | 'fleet' | 'ltc'>): string {
  return [
    pilot.rank,
    pilot.firstName,
    pilot.lastName,
    pilot.rank === 'FO' && pilot.apic ? 'APIC' : '',
    pilot.fleet,
    pilot.ltc ? 'LTC' : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

interface Props {
  pilot: Pilot;
  refreshing: boolean;
  onAddTrip: () => void;
  onUploadRoster: () => void;
  onCrewLinks: () => void;
  onCalendars: () => void;
  onTripSearch: () => void;
  onTechSupport: () => void;
  onProposals: () => void;
  /** Pick up a trip: give-aways the pilot could fly. */
  onPickUp: () => void;
  onRefresh: () => void;
  onEditDetails: () => void;
  onNotifications: () => void;
  /** The bell: the pilot's alerts (Notification Preferences are at the top of that list). */
  onAlerts: () => void;
  onWishes: () => void;
  onLogout: () => void;
}

export function TripsHeader({ pilot, refreshing, onAddTrip, onUploadRoster, onCrewLinks, onCalendars, onTripSearch, onTechSupport, onProposals, onPickUp, onRefresh, onEditDetails, onNotifications, onAlerts, onWishes, onLogout }: Props) {
  const narrow = useIsNarrow();
  const productName = useProductName();
  // Offline, what only the server can do is disabled, and its title says why.
  const online = useOnline();
  const server = online ? {} : { disabled: true, title: NEEDS_CONNECTION };
  const label = pilotLabel(pilot);
  const support = (
    <Button type="text" className="header-icon" icon={<CustomerServiceOutlined />} onClick={onTechSupport} aria-label="Tech Support" />
  );
  const refresh = (
    <Button type="text" className="header-icon" icon={<ReloadOutlined spin={refreshing} />} onClick={onRefresh} aria-label="Refresh trips" {...server} />
  );
  // The empty state's first step points here: id="notifications-bell".
  const bell = <BellButton onClick={onAlerts} />;
  return (
    <header className="app-header">
      <a
        className="logo"
        href="/"
        aria-label={`${productName}: reload`}
        onClick={(event) => {
          event.preventDefault();
          window.location.reload();
        }}
      >
        <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true">
          <path fill="currentColor" d="M21 16v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5z" />
        </svg>
        {!narrow && <span>{productName}</span>}
      </a>
      <button type="button" className="pilot-label" onClick={onEditDetails} aria-label={`Edit My Details: ${label}`}>
        {label}
      </button>
      <nav className="header-actions" aria-label="Actions">
        {narrow ? (
          <>
            {/* Add Trip is in the menu: the bar keeps room for the pilot's label next to the bell. */}
            <Button type="text" className="header-icon" icon={<CloudUploadOutlined />} onClick={onUploadRoster} aria-label="Upload Roster" {...server} />
            {refresh}
            {bell}
            <HeaderMenu
              items={[
                // Offline too: a new trip waits on the device and is sent later (offlineQueue.ts).
                { label: 'Add Trip', onClick: onAddTrip },
                { label: 'Upload Roster', onClick: onUploadRoster, ...server },
                { label: 'Calendars', onClick: onCalendars },
                { label: 'Trip Search', onClick: onTripSearch },
                { label: 'Swap Proposals', onClick: onProposals },
                { label: 'Pick up a trip', onClick: onPickUp, ...server },
                { label: 'Crew Links', onClick: onCrewLinks },
                { label: 'Tech Support', onClick: onTechSupport },
                { label: 'Edit My Details', onClick: onEditDetails },
                { label: 'Wishes', onClick: onWishes },
                { label: 'Notification Preferences', onClick: onNotifications },
                { label: 'Logout', onClick: onLogout },
              ]}
            />
          </>
        ) : (
          <>
            <Button type="text" className="header-icon header-labelled" icon={<CalendarOutlined />} onClick={onCalendars} aria-label="Calendars" title="Calendars">
              Calendars
            </Button>
            <Button type="text" className="header-icon header-labelled" icon={<LinkOutlined />} onClick={onCrewLinks} aria-label="Crew Links" title="Crew Links">
              Crew Links
            </Button>
            <Button type="text" className="header-icon header-labelled" icon={<FileSearchOutlined />} onClick={onTripSearch} aria-label="Trip Search" title="Trip Search">
              Trip Search
            </Button>
            <Button type="text" className="header-icon" icon={<SwapOutlined />} onClick={onProposals} aria-label="Swap Proposals" title="Swap Proposals" />
            <Button type="text" className="header-icon" icon={<GiftOutlined />} onClick={onPickUp} aria-label="Pick up a trip" title="Pick up a trip" {...server} />
            <Button className="header-add" icon={<PlusOutlined />} onClick={onAddTrip}>
              Add Trip
            </Button>
            <Button className="header-upload" icon={<CloudUploadOutlined />} onClick={onUploadRoster} {...server}>
              Upload Roster
            </Button>
            <Button type="text" className="header-icon" icon={<StarOutlined />} onClick={onWishes} aria-label="Wishes" title="Wishes" />
            {refresh}
            {bell}
            {support}
            <Button type="text" className="header-icon header-labelled" icon={<LogoutOutlined />} onClick={onLogout} aria-label="Logout" title="Logout">
              Logout
            </Button>
          </>
        )}
      </nav>
    </header>
  );
}

/** The narrow screen's menu: a button that opens the header's actions as a list. */
function HeaderMenu({ items }: { items: Array<{ label: string; onClick: () => void; disabled?: boolean; title?: string }> }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div ref={root}>
      <Button
        type="text"
        className="header-icon"
        icon={<MenuOutlined />}
        aria-label="Menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      />
      {open && (
        <div role="menu" className="header-menu">
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              disabled={item.disabled}
              title={item.title}
              onClick={() => {
                setOpen(false);
                item.onClick();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
