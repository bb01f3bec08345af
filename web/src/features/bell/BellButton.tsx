import { BellOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useBell } from '../../api/bell';

/** How many unread alerts the badge shows before it says '99+'. */
const MAX_SHOWN_UNREAD = 99;

/**
 * The bell, with the count of unread alerts on it. The count is a plain span, not antd's Badge:
 * the header keeps to the components the trips page loads anyway.
 */
export function BellButton({ onClick }: { onClick: () => void }) {
  const unread = useBell().data?.unread ?? 0;
  const shown = unread > MAX_SHOWN_UNREAD ? `${MAX_SHOWN_UNREAD}+` : String(unread);
  return (
    <Button
      id="notifications-bell"
      type="text"
      className="header-icon bell-button"
      icon={<BellOutlined />}
      onClick={onClick}
      aria-label={unread > 0 ? `Alerts, ${unread} unread` : 'Alerts'}
      title="Alerts"
    >
      {unread > 0 && (
        <span className="bell-count" aria-hidden="true">
          {shown}
        </span>
      )}
    </Button>
  );
}
