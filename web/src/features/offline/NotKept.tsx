import { Alert } from 'antd';
import type { FetchStatus } from '@tanstack/react-query';
import { NEEDS_CONNECTION } from '../../api/online';

/**
 * Offline, a view the pilot never opened online has nothing kept: its query waits for the network
 * ('paused') with no data. Without this it looked empty (no crew, no alerts, only the pilot's own
 * row) or loaded for ever.
 */
export function waitsForNetwork(query: { fetchStatus: FetchStatus; data: unknown }): boolean {
  return query.fetchStatus === 'paused' && query.data === undefined;
}

/** What such a view says instead: it needs the server, and why nothing is shown. */
export function NotKept({ what }: { what: string }) {
  return <Alert type="info" showIcon title={NEEDS_CONNECTION} description={`${what} was not opened online on this device yet, so there is no copy to show.`} />;
}
