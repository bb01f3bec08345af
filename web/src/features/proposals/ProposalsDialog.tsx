import { Alert, Button, Empty, Input, Select, Space, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { pilotName } from '@crewswap/proto/browser';
import type { Pilot, SwapAgreement, SwapProposalView, Trip } from '@crewswap/proto';
import './proposals.css';
import { errorMessage } from '../../api/client';
import { useAgreements, useAnswerProposal, useCancelSwap, useProposals } from '../../api/proposals';
import { useTrips } from '../../api/trips';
import { AppModal } from '../../shared/AppModal';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import { CardChanges } from '../offline/CardChanges';
import { crewingStatus } from './crewingStatus';
import { formatRange } from '../../shared/format';
import { TripValue } from '../../shared/TripValue';
import { PageLoading } from '../../shared/PageLoading';
import { SimpleTabs } from '../../shared/SimpleTabs';
import { useConfirm } from '../../shared/useConfirm';

const CrewingRequestDialog = lazy(() => import('./CrewingRequestDialog'));

const STATUS_LABELS: Record<string, string> = {
  open: 'Open',
  accepted: 'Accepted',
  declined: 'Declined',
  countered: 'Countered',
  cancelled: 'Cancelled',
  expired: 'Expired',
};
const STATUS_COLORS: Record<string, string> = { open: 'blue', accepted: 'green', agreed: 'gold', approved: 'green', refused: 'red', declined: 'default' };

/** One side's trip; a pilot who picks up a give-away gives none. */
function TripBox({ title, side }: { title: string; side: { trip: Trip | null } }) {
  const { trip } = side;
  if (!trip) {
    return (
      <div className="swap-trip">
        <div className="swap-trip-title">{title}</div>
        <div>Nothing: a give-away</div>
      </div>
    );
  }
  return (
    <div className="swap-trip">
      <div className="swap-trip-title">{title}</div>
      <div className="swap-trip-flights">
        {trip.flightNoStart}/{trip.flightNoEnd} {trip.route}
        {trip.aircraft ? ` · ${trip.aircraft}` : ''}
      </div>
      <div>{formatRange(trip.startDate, trip.endDate)}</div>
      <TripValue trip={trip} />
    </div>
  );
}

function PilotLine({ side }: { side: Pick<SwapAgreement['owner'], 'pilot'> }) {
  const { pilot } = side;
  return (
    <div className="swap-pilot">
      <strong>{pilotName(side)}</strong> · {pilot.rank} {pilot.fleet} · <a href={`mailto:${pilot.email}`}>{pilot.email}</a> · <a href={`tel:${pilot.phone}`}>{pilot.phone}</a>
    </div>
  );
}

/** Counter: another of my trips, not started and not the one asked for. */
function CounterForm({ proposal, trips, onDone }: { proposal: SwapProposalView; trips: Trip[]; onDone: () => void }) {
  const answer = useAnswerProposal();
  const [tripId, setTripId] = useState<string>();
  const choices = trips.filter((t) => t.id !== proposal.owner.trip.id && !t.isStandby);
  return (
    <Space.Compact block className="counter-form">
      <Select
        aria-label="Trip to offer instead"
        placeholder="Offer another of your trips"
        value={tripId}
        onChange={setTripId}
        options={choices.map((t) => ({ value: t.id, label: `${t.flightNoStart}/${t.flightNoEnd} ${t.route} · ${formatRange(t.startDate, t.endDate)}` }))}
        style={{ flex: 1, minWidth: 0 }}
      />
      <Button type="primary" disabled={!tripId} loading={answer.isPending} onClick={() => tripId && answer.mutate({ action: 'counter', id: proposal.id, tripId }, { onSuccess: onDone })}>
        Send Counter
      </Button>
    </Space.Compact>
  );
}

function ProposalCard({ proposal, trips }: { proposal: SwapProposalView; trips: Trip[] }) {
  const answer = useAnswerProposal();
  const confirm = useConfirm();
  const [countering, setCountering] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const received = proposal.role === 'received';
  const other = received ? proposal.proposer : proposal.owner;
  const open = proposal.status === 'open';
  const accept = async () => {
    const content = proposal.proposer.trip
      ? `Agree to swap with ${pilotName(other)}? Both offers are withdrawn and crewing gets the request.`
      : `Give this trip to ${pilotName(other)}? Your offer is withdrawn and crewing gets the request.`;
    const ok = await confirm({ title: 'Accept Swap', content, okText: 'Accept' });
    if (ok) answer.mutate({ action: 'accept', id: proposal.id });
  };
  return (
    <article className="proposal-card" aria-label={`Proposal from ${pilotName(proposal.proposer)}`}>
      <div className="proposal-head">
        <Tag color={STATUS_COLORS[proposal.status]}>{STATUS_LABELS[proposal.status]}</Tag>
        {proposal.counterOf && <Tag>Counter</Tag>}
        {proposal.mutual && (
          <Tag color="cyan" title="Each of you could take the other's trip">
            Mutual
          </Tag>
        )}
        {received && proposal.clashes && <Tag color="red">Clashes with one of your trips</Tag>}
      </div>
      <CardChanges card={`proposal:${proposal.id}`} />
      <PilotLine side={other} />
      <div className="swap-sides">
        <TripBox title={received ? 'You give' : 'You take'} side={proposal.owner} />
        <TripBox title={received ? 'You take' : 'You give'} side={proposal.proposer} />
      </div>
      {proposal.note && <p className="proposal-text">“{proposal.note}”</p>}
      {proposal.reason && <p className="proposal-text">Reason: {proposal.reason}</p>}
      {open && received && (
        <div className="proposal-actions">
          <Button type="primary" onClick={accept} loading={answer.isPending}>
            Accept
          </Button>
          <Button onClick={() => setDeclining((d) => !d)}>Decline</Button>
          <Button onClick={() => setCountering((c) => !c)}>Counter</Button>
        </div>
      )}
      {open && received && declining && (
        <Space.Compact block>
          <Input aria-label="Reason (optional)" placeholder="Reason (optional)" maxLength={200} value={reason} onChange={(event) => setReason(event.target.value)} />
          <Button danger onClick={() => answer.mutate({ action: 'decline', id: proposal.id, ...(reason.trim() ? { reason: reason.trim() } : {}) })}>
            Decline
          </Button>
        </Space.Compact>
      )}
      {open && received && countering && <CounterForm proposal={proposal} trips={trips} onDone={() => setCountering(false)} />}
      {open && !received && (
        <div className="proposal-actions">
          <Button onClick={() => answer.mutate({ action: 'cancel', id: proposal.id })}>Cancel Proposal</Button>
        </div>
      )}
    </article>
  );
}

function AgreementCard({ agreement, me, onCrewing }: { agreement: SwapAgreement; me: Pilot; onCrewing: (agreement: SwapAgreement) => void }) {
  const cancelSwap = useCancelSwap();
  const confirm = useConfirm();
  const mine = agreement.proposer.pilot.id === me.id ? agreement.proposer : agreement.owner;
  const other = mine === agreement.proposer ? agreement.owner : agreement.proposer;
  const cancel = async () => {
    const ok = await confirm({ title: 'Cancel Swap', content: `Cancel your agreed swap with ${pilotName(other)}? Your offer is not restored: offer the trip again if you wish.`, okText: 'Cancel Swap' });
    if (ok) cancelSwap.mutate(agreement.id);
  };
  return (
    <article className="proposal-card" aria-label={`Swap with ${pilotName(other)}`}>
      <div className="proposal-head">
        <Tag color={STATUS_COLORS[agreement.status]}>{crewingStatus(agreement)}</Tag>
      </div>
      <PilotLine side={other} />
      <div className="swap-sides">
        <TripBox title="You give" side={mine} />
        <TripBox title="You take" side={other} />
      </div>
      <div className="proposal-actions">
        <Button onClick={() => onCrewing(agreement)}>Crewing Request</Button>
        {agreement.status === 'agreed' && (
          <>
            <Button onClick={cancel}>Cancel Swap</Button>
          </>
        )}
      </div>
    </article>
  );
}

/** Swap proposals: received (Accept, Decline, Counter), sent (Cancel), and agreed swaps with their history. */
export default function ProposalsDialog({ me, onClose }: { me: Pilot; onClose: () => void }) {
  const proposals = useProposals();
  const agreements = useAgreements();
  const trips = useTrips();
  const [tab, setTab] = useState('received');
  const [crewingFor, setCrewingFor] = useState<SwapAgreement | null>(null);
  // 'None yet' only once the list is known: while it loads (or when it failed) the pilot is told that instead.
  const list = (role: 'received' | 'sent') => {
    if (proposals.isError) return <Alert type="error" showIcon title={`Failed to load proposals: ${errorMessage(proposals.error)}`} />;
    if (waitsForNetwork(proposals)) return <NotKept what="Swap Proposals" />;
    if (!proposals.data) return <PageLoading text="Loading proposals..." />;
    const shown = proposals.data.filter((p) => p.role === role);
    return shown.length === 0 ? <Empty description={role === 'received' ? 'No proposals for your offers yet' : 'You have not proposed a swap yet'} /> : shown.map((p) => <ProposalCard key={p.id} proposal={p} trips={trips.data ?? []} />);
  };
  const agreedList = () => {
    if (agreements.isError) return <Alert type="error" showIcon title={`Failed to load agreed swaps: ${errorMessage(agreements.error)}`} />;
    if (waitsForNetwork(agreements)) return <NotKept what="Agreed swaps" />;
    if (!agreements.data) return <PageLoading text="Loading agreed swaps..." />;
    const agreed = agreements.data;
    return agreed.length === 0 ? <Empty description="No agreed swaps yet" /> : agreed.map((a) => <AgreementCard key={a.id} agreement={a} me={me} onCrewing={setCrewingFor} />);
  };
  return (
    <AppModal title="Swap Proposals" onCancel={onClose} width={760}>
      <SimpleTabs
        active={tab}
        onChange={setTab}
        tabs={[
          { key: 'received', label: 'Received', content: <div className="proposal-list">{list('received')}</div> },
          { key: 'sent', label: 'Sent', content: <div className="proposal-list">{list('sent')}</div> },
          {
            key: 'agreed',
            label: 'Agreed',
            content: (
              <div className="proposal-list">
                {agreedList()}
              </div>
            ),
          },
        ]}
      />
      <Suspense fallback={null}>{crewingFor && <CrewingRequestDialog agreement={crewingFor} onClose={() => setCrewingFor(null)} />}</Suspense>
    </AppModal>
  );
}
