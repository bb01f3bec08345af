import { Alert, Button, Empty, Select, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { Legality, PilotContact, SwapRequest, SwapRequestsQuery, Trip } from '@crewswap/proto';
import { isLtcCaptain } from '@crewswap/proto/browser';
import { formatRange } from '../../../../shared/format';
import { LegalityTag } from '../../../../shared/LegalityTag';
import { TripValue } from '../../../../shared/TripValue';
import { FLEET_OPTIONS } from '../../../../shared/options';
import { toast } from '../../../../shared/toast';
import { useConfirm } from '../../../../shared/useConfirm';
import { useApproveSwapRequest, useSwapRequests } from '../../api/swapRequests';
import { formatDateTime } from '../../format';
import { FailedLoad } from '../../layout/FailedLoad';
import { useUrlState } from '../../useUrlState';
import { RefuseDialog } from './RefuseDialog';
import { flightsOf, nameOf, requestTitle, STATUS_COLORS, STATUS_LABELS } from './requestWords';

/** The desk opens on what waits for crewing; 'pending' is the default, so a bare /admin/swap-requests shows it. */
export const SWAP_REQUEST_FILTERS = { status: 'pending', fleet: '' };

const STATUS_OPTIONS = (['pending', 'approved', 'refused'] as const).map((value) => ({ value, label: STATUS_LABELS[value] }));

function PilotFacts({ pilot }: { pilot: PilotContact }) {
  const rank = `${pilot.rank}${pilot.rank === 'FO' && pilot.apic ? ' APIC' : ''}${isLtcCaptain(pilot) ? ' LTC' : ''}`;
  return (
    <div className="swap-request-pilot">
      <strong>{nameOf(pilot)}</strong>
      <div className="admin-muted">
        {pilot.employeeId} · {rank} · {pilot.fleet} · {pilot.base}
      </div>
    </div>
  );
}

function TripFacts({ trip }: { trip: Trip | null }) {
  if (!trip) return <Tag color="purple">Give-away</Tag>;
  return (
    <div>
      {flightsOf(trip)}
      {trip.aircraft ? ` · ${trip.aircraft}` : ''}
      <div className="admin-muted">{formatRange(trip.startDate, trip.endDate)}</div>
      <TripValue trip={trip} />
    </div>
  );
}

/** `legality`: whether this pilot may fly the trip they take (issue 55); absent once decided, and for the owner of a give-away. */
function Side({ title, pilot, trip, legality }: { title: string; pilot: PilotContact; trip: Trip | null; legality: Legality | null | undefined }) {
  return (
    <section className="swap-request-side" aria-label={`${title}: ${nameOf(pilot)}`}>
      <div className="admin-muted">{title}</div>
      <PilotFacts pilot={pilot} />
      <div className="admin-muted">Gives</div>
      <TripFacts trip={trip} />
      {legality && (
        <div aria-label={`Flight time limits: ${nameOf(pilot)}`}>
          <div className="admin-muted">Flight time limits</div>
          <LegalityTag legality={legality} />
        </div>
      )}
    </section>
  );
}

function RequestCard({ request, onRefuse }: { request: SwapRequest; onRefuse: (request: SwapRequest) => void }) {
  const approve = useApproveSwapRequest();
  const confirm = useConfirm();
  const title = requestTitle(request);
  const approveNow = async () => {
    const moves =
      request.kind === 'giveaway' || !request.proposer.trip
        ? `${flightsOf(request.owner.trip)} moves to ${nameOf(request.proposer.pilot)}.`
        : `${flightsOf(request.owner.trip)} moves to ${nameOf(request.proposer.pilot)} and ${flightsOf(request.proposer.trip)} to ${nameOf(request.owner.pilot)}.`;
    const ok = await confirm({ title: 'Approve Swap', content: `${moves} Both pilots are told at once.`, okText: 'Approve' });
    if (ok) approve.mutate(request.id, { onSuccess: () => toast.success('Swap Approved', `${title}: the trips have changed hands.`) });
  };
  return (
    <article className="swap-request" aria-label={`Swap request: ${title}`}>
      <div className="swap-request-head">
        <Tag color={STATUS_COLORS[request.status]}>{STATUS_LABELS[request.status]}</Tag>
        {request.kind === 'giveaway' && <Tag color="purple">Give-away</Tag>}
        <span className="admin-muted">Agreed {formatDateTime(request.agreedAt)}</span>
        {request.decidedAt && <span className="admin-muted">Decided {formatDateTime(request.decidedAt)}</span>}
      </div>
      <div className="swap-request-sides">
        <Side title={request.kind === 'giveaway' ? 'Picks up' : 'Proposed'} pilot={request.proposer.pilot} trip={request.proposer.trip} legality={request.legality?.proposer} />
        <Side title="Offered" pilot={request.owner.pilot} trip={request.owner.trip} legality={request.legality?.owner} />
      </div>
      {request.note && <Typography.Paragraph className="swap-request-note">“{request.note}”</Typography.Paragraph>}
      {request.reason && <Typography.Paragraph>Refused: {request.reason}</Typography.Paragraph>}
      {request.warnings.map((warning) => (
        <Alert key={warning} type="warning" showIcon title={warning} />
      ))}
      {request.status === 'pending' && (
        <div className="admin-button-row">
          <Button type="primary" loading={approve.isPending} onClick={() => void approveNow()}>
            Approve
          </Button>
          <Button danger onClick={() => onRefuse(request)}>
            Refuse
          </Button>
        </div>
      )}
    </article>
  );
}

/** Swap Requests: agreements waiting for crewing, both pilots and both trips side by side; approve or refuse. */
export default function SwapRequestsPanel() {
  const [filters, setFilters] = useUrlState(SWAP_REQUEST_FILTERS);
  const [refusing, setRefusing] = useState<SwapRequest | null>(null);
  const query: SwapRequestsQuery = {
    status: (filters.status || undefined) as SwapRequestsQuery['status'],
    fleet: (filters.fleet || undefined) as SwapRequestsQuery['fleet'],
  };
  const loaded = useSwapRequests(query);
  const requests = loaded.data?.requests ?? [];
  let list;
  if (loaded.isError && !loaded.data) list = <FailedLoad query={loaded} />;
  else if (!loaded.data) list = <Spin tip="Loading swap requests..."><div className="swap-request-loading" /></Spin>;
  else if (requests.length === 0) list = <Empty description={filters.status === 'pending' ? 'No swap requests waiting for crewing' : 'No swap requests'} />;
  else list = requests.map((request) => <RequestCard key={request.id} request={request} onRefuse={setRefusing} />);

  return (
    <div className="admin-panel">
      <div className="admin-filters">
        <Select aria-label="Status" value={filters.status} onChange={(status: string) => setFilters({ status })} options={STATUS_OPTIONS} className="admin-filter" />
        <Select
          aria-label="Fleet"
          placeholder="Fleet"
          allowClear
          value={filters.fleet || undefined}
          onChange={(fleet?: string) => setFilters({ fleet: fleet ?? '' })}
          options={FLEET_OPTIONS}
          className="admin-filter"
        />
        {loaded.isFetching && loaded.data && <Spin size="small" aria-label="Refreshing" />}
      </div>
      <Typography.Text type="secondary" role="status">
        {loaded.data ? `${requests.length} ${requests.length === 1 ? 'request' : 'requests'}` : ''}
      </Typography.Text>
      <div className="swap-request-list">{list}</div>
      {refusing && <RefuseDialog request={refusing} onClose={() => setRefusing(null)} />}
    </div>
  );
}
