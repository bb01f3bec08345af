import { SettingOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import type { AlertReason, BellEntry } from '@crewswap/proto';
import { useBell, useMarkBellRead } from '../../api/bell';
import { errorMessage } from '../../api/client';
import { AppModal } from '../../shared/AppModal';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import './bell.css';

/** Why the alert came, as the bell names it beside each one (issue 39). */
export const REASONS: Record<AlertReason, { label: string; color: string }> = {
  wish: { label: 'Wish', color: 'gold' },
  urgent: { label: 'Urgent', color: 'red' },
  proposal: { label: 'Proposal', color: 'blue' },
  roster_change: { label: 'Roster change', color: 'purple' },
  offer: { label: 'Swap offer', color: 'green' },
};

const when = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

interface Props {
  onClose: () => void;
  onPreferences: () => void;
  /** Follows an alert to what it is about (its url, e.g. '/?view=proposals'). */
  onFollow: (url: string) => void;
}

/**
 * The bell's list: the pilot's recent alerts, newest first, each with its reason. Opening it
 * marks what it shows read on every device; those stay marked New until it is closed. A panel at
 * the right edge on a desktop, the app's full-width sheet on a phone: a dialog styled so, because
 * antd's Drawer would reshuffle the shared chunks and grow the login page's first load.
 */
export default function BellList({ onClose, onPreferences, onFollow }: Props) {
  const bell = useBell();
  const markRead = useMarkBellRead();
  const [fresh, setFresh] = useState<ReadonlySet<string> | null>(null);
  const entries = bell.data?.entries;

  useEffect(() => {
    if (!entries || fresh) return;
    const unread = entries.filter((entry) => !entry.read).map((entry) => entry.id);
    setFresh(new Set(unread));
    if (unread.length > 0) markRead.mutate(unread);
  }, [entries, fresh, markRead]);

  return (
    <AppModal title="Alerts" onCancel={onClose} width={420} wrapClassName="bell-panel-wrap" className="bell-panel">
      <div className="bell-top">
        <span>Newest first</span>
        <Button size="small" icon={<SettingOutlined />} onClick={onPreferences}>
          Notification Preferences
        </Button>
      </div>
      {bell.isLoading && <Spin />}
      {waitsForNetwork(bell) && <NotKept what="The alerts list" />}
      {bell.isError && <Alert type="error" showIcon title="Failed to load your alerts" description={errorMessage(bell.error)} />}
      {entries?.length === 0 && (
        <Empty description="No alerts yet">
          <p className="bell-hint">New swap offers for your trips, offers that answer your wishes and answers to your proposals are listed here.</p>
        </Empty>
      )}
      {entries && entries.length > 0 && (
        <ul className="bell-list" aria-label="Alerts">
          {entries.map((entry) => (
            <BellItem key={entry.id} entry={entry} isNew={fresh?.has(entry.id) ?? !entry.read} onFollow={onFollow} />
          ))}
        </ul>
      )}
    </AppModal>
  );
}

function BellItem({ entry, isNew, onFollow }: { entry: BellEntry; isNew: boolean; onFollow: (url: string) => void }) {
  const reason = REASONS[entry.reason];
  return (
    <li className={isNew ? 'bell-entry bell-new' : 'bell-entry'}>
      <button type="button" onClick={() => onFollow(entry.url)}>
        <span className="bell-meta">
          <Tag color={reason.color}>{reason.label}</Tag>
          {isNew && <span className="bell-new-mark">New</span>}
          <time dateTime={entry.createdAt}>{when.format(new Date(entry.createdAt))}</time>
        </span>
        <strong className="bell-title">{entry.title}</strong>
        <span className="bell-body">{entry.body}</span>
      </button>
    </li>
  );
}
