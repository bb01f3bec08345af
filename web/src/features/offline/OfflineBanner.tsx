import { useQueryClient } from '@tanstack/react-query';
import { useOnline } from '../../api/online';
import { savedAt } from '../../api/persist';
import './offline.css';

function hoursMinutes(time: number): string {
  const date = new Date(time);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** Without a network the app shows what the pilot last saw, and says from when. */
export function OfflineBanner() {
  const online = useOnline();
  const queryClient = useQueryClient();
  if (online) return null;
  const time = savedAt(queryClient);
  return (
    <div className="offline-banner" role="status">
      <strong>{time ? `Offline — showing what you saw at ${hoursMinutes(time)}` : 'Offline'}</strong>
      <span>Changes to your trips wait here and are sent when you are back online; uploads and new searches need a connection.</span>
    </div>
  );
}
