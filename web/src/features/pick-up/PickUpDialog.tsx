import '../proposals/proposals.css';
import { Alert, Button, Empty } from 'antd';
import { useState } from 'react';
import type { Giveaway, Pilot } from '@crewswap/proto';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { errorMessage } from '../../api/client';
import { useGiveaways, useProposeSwap } from '../../api/proposals';
import { swapWindowDays, useSetting } from '../../api/settings';
import { AppModal } from '../../shared/AppModal';
import { formatRange } from '../../shared/format';
import { DateField } from '../../shared/DateField';
import { PageLoading } from '../../shared/PageLoading';
import { toast } from '../../shared/toast';
import { pickUpRangeProblem } from './pickUpRange';

/** Pick up a trip: give-aways the pilot could fly in a date range (today to their swap window), and Request. */
export default function PickUpDialog({ pilot, onClose }: { pilot: Pilot; onClose: () => void }) {
  const windowSetting = useSetting('swap_search_days').data;
  const today = londonToday();
  const [range, setRange] = useState<{ from: string; to?: string }>({ from: today });
  // Until the pilot picks an end, it follows the swap window (the setting may arrive after the dialog opens).
  const shown = { from: range.from, to: range.to ?? addDays(today, swapWindowDays(pilot.searchDayRange, windowSetting)) };
  const problem = pickUpRangeProblem(shown);
  const giveaways = useGiveaways(shown, problem === null);
  const propose = useProposeSwap();
  const [requested, setRequested] = useState<string[]>([]);

  const request = (giveaway: Giveaway) =>
    propose.mutate(
      { offeredTripId: giveaway.trip.id, myTripId: null },
      {
        onSuccess: () => {
          setRequested((ids) => [...ids, giveaway.trip.id]);
          toast.success('Request Sent', `${giveaway.owner.firstName} ${giveaway.owner.lastName} can now accept or decline it.`);
        },
      },
    );

  let list;
  if (problem) list = <Alert type="warning" showIcon title={problem} />;
  else if (giveaways.isError) list = <Alert type="error" showIcon title={`Failed to load give-aways: ${errorMessage(giveaways.error)}`} />;
  else if (!giveaways.data) list = <PageLoading text="Loading give-aways..." />;
  else if (giveaways.data.length === 0) list = <Empty description="No trips offered as give-aways that you could fly in these dates" />;
  else
    list = giveaways.data.map((giveaway) => {
      const { trip, owner } = giveaway;
      const flights = `${trip.flightNoStart}/${trip.flightNoEnd}`;
      const sent = requested.includes(trip.id);
      return (
        <article key={trip.id} className="proposal-card" aria-label={`Give-away ${flights} ${trip.route}`}>
          <div className="swap-trip">
            <div className="swap-trip-flights">
              {flights} {trip.route}
              {trip.aircraft ? ` · ${trip.aircraft}` : ''}
            </div>
            <div>{formatRange(trip.startDate, trip.endDate)}</div>
          </div>
          {trip.swapDescription && <p className="proposal-text">“{trip.swapDescription}”</p>}
          <div className="swap-pilot">
            <strong>
              {owner.firstName} {owner.lastName}
            </strong>{' '}
            · {owner.rank} {owner.fleet} · <a href={`mailto:${owner.email}`}>{owner.email}</a> · <a href={`tel:${owner.phone}`}>{owner.phone}</a>
          </div>
          <div className="proposal-actions">
            <Button type="primary" disabled={sent} loading={propose.isPending && propose.variables?.offeredTripId === trip.id} onClick={() => request(giveaway)}>
              {sent ? 'Requested' : 'Request'}
            </Button>
          </div>
        </article>
      );
    });

  return (
    <AppModal title="Pick up a trip" onCancel={onClose} width={640}>
      <p className="muted">Trips other pilots give away that you could fly. Request one: its owner accepts or declines, then crewing decides.</p>
      <div className="form-grid">
        <div>
          <label className="field-label small" htmlFor="pick-up-from">
            From
          </label>
          <DateField id="pick-up-from" value={shown.from} onChange={(from) => setRange({ ...range, from })} />
        </div>
        <div>
          <label className="field-label small" htmlFor="pick-up-to">
            To
          </label>
          <DateField id="pick-up-to" min={shown.from} value={shown.to} onChange={(to) => setRange({ ...range, to })} />
        </div>
      </div>
      {propose.isError && <Alert className="pick-up-refused" type="error" showIcon title={errorMessage(propose.error)} />}
      <div className="proposal-list">{list}</div>
    </AppModal>
  );
}
