import { Alert, Button, Input, Popconfirm, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { RosterSubscription, RosterSubscriptionFetched } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import { useFetchRosterSubscription, useRemoveRosterSubscription, useRosterSubscription } from '../../api/roster';
import { rememberChangedTrips } from '../../shared/changedTrips';
import RosterUploadResultView from './RosterUploadResultView';

const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** The last fetch in a line: 'Last fetched 3 Dec 2026, 09:10: up to date. Next fetch ...'. */
export function fetchStatus(subscription: RosterSubscription): string {
  const last = subscription.lastFetchedAt ? `Last fetched ${when(subscription.lastFetchedAt)}` : 'Not fetched yet';
  const next = subscription.nextFetchAt ? ` Next fetch ${when(subscription.nextFetchAt)}.` : '';
  switch (subscription.lastStatus) {
    case 'ok':
      return `${last}: imported.${next}`;
    case 'not_modified':
      return `${last}: no changes.${next}`;
    case 'failed':
      return `${last}: failed. ${subscription.lastError ?? ''}${next}`;
    case 'paused':
      return `Paused after 5 failed fetches: ${subscription.lastError ?? ''} Save the address again to restart.`;
  }
}

/**
 * Roster address (issue 56), in Edit My Details and the Upload Roster dialog: the pilot pastes
 * their roster's calendar address (https:// or webcal://); CrewSwap fetches it at once, answers
 * like an upload, and then keeps the roster current on its own.
 */
export default function RosterAddressSection() {
  const subscription = useRosterSubscription();
  const fetchNow = useFetchRosterSubscription();
  const remove = useRemoveRosterSubscription();
  const [url, setUrl] = useState('');
  const [fetched, setFetched] = useState<RosterSubscriptionFetched | null>(null);
  const current = subscription.data;
  useEffect(() => {
    if (current?.url) setUrl(current.url);
  }, [current?.url]);

  const run = (input: { url: string } | 'refresh') => {
    setFetched(null);
    fetchNow.mutate(input, {
      onSuccess: (answer) => {
        if (answer.result) rememberChangedTrips(answer.result.changes.filter((change) => change.kind === 'changed').map((change) => change.tripId));
        setFetched(answer);
      },
    });
  };

  return (
    <section className="roster-address" aria-labelledby="roster-address-title">
      <Typography.Title level={5} id="roster-address-title">
        Roster address
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Paste your roster’s calendar address (https:// or webcal://) from your crew system: CrewSwap imports it now and then keeps your roster current on its own.
      </Typography.Paragraph>
      <Space.Compact style={{ width: '100%' }}>
        <Input aria-label="Roster address" placeholder="webcal://..." value={url} onChange={(event) => setUrl(event.target.value)} disabled={fetchNow.isPending} />
        <Button type="primary" loading={fetchNow.isPending} disabled={!url.trim()} onClick={() => run({ url: url.trim() })}>
          Save
        </Button>
      </Space.Compact>
      {current && <Typography.Paragraph aria-label="Roster address status">{fetchStatus(current)}</Typography.Paragraph>}
      {current && (
        <Space>
          <Button size="small" onClick={() => run('refresh')} loading={fetchNow.isPending}>
            Fetch Now
          </Button>
          <Popconfirm title="Remove your roster address?" description="CrewSwap stops fetching it at once; your trips stay." okText="Remove" cancelText="Cancel" onConfirm={() => remove.mutateAsync().then(() => setUrl(''))}>
            <Button size="small" danger loading={remove.isPending}>
              Remove
            </Button>
          </Popconfirm>
        </Space>
      )}
      {/* What the fetch imported, shown exactly as an upload's result is. */}
      {fetched?.result && <RosterUploadResultView result={fetched.result} label="Roster address result" />}
      {fetched && !fetched.result && <Alert type="info" showIcon title="No changes since the last fetch" />}
      {(fetchNow.error ?? remove.error) && <Alert type="error" showIcon title="Roster not fetched" description={errorMessage(fetchNow.error ?? remove.error)} />}
    </section>
  );
}
