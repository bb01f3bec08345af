import { EditOutlined, LinkOutlined, SearchOutlined, SwapOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { lazy, memo, Suspense } from 'react';
import type { Aircraft, Pilot, Trip } from '@crewswap/proto';
import { isUnsentTrip } from '../../api/offlineQueue';
import { NEEDS_CONNECTION, useOnline } from '../../api/online';
import { useUpdateTrip } from '../../api/trips';
import { SwapMatchList, useFindSwaps } from '../find-swaps/FindSwaps';
import { CardChanges } from '../offline/CardChanges';
import { formatRange } from '../../shared/format';
import { OFFER_TYPE_LABELS } from '../../shared/options';
import { PilotTags } from '../../shared/PilotTags';
import { TripValue } from '../../shared/TripValue';
import { aircraftChoices } from './tripForm';

const TripSwapStatus = lazy(() => import('../proposals/TripSwapStatus'));

/** Where a trip came from, shown beside its roster text (manual trips have none). */
const SOURCE_LABELS: Record<string, string> = { upload: 'from an uploaded roster', email: 'from an emailed roster' };

/** Why a trip added offline cannot be changed or offered yet: the server does not know it. */
export const UNSENT_TRIP_TITLE = 'Waiting to send: this trip can be changed once the server has it.';

interface Props {
  trip: Trip;
  pilot: Pilot;
  fading: boolean;
  /** Changed by a roster import, not yet seen. */
  changed?: boolean;
  onEdit: (trip: Trip) => void;
  onManage: (trip: Trip) => void;
  /** Opens Crew Links filtered by this trip's airports. */
  onCrewLinks?: (destinations: string[]) => void;
  /** Opens Crew on Trip (standby duties have no crew). */
  onCrew?: (trip: Trip) => void;
  /** Opens the swap proposals (from the card's proposal count or agreed swap). */
  onProposals?: () => void;
}

/** Memoised: the page drawn again (a dialog opening, a refresh) leaves unchanged cards alone. */
export const TripCard = memo(function TripCard({ trip, pilot, fading, changed, onEdit, onManage, onCrewLinks, onCrew, onProposals }: Props) {
  const updateTrip = useUpdateTrip('Failed to update aircraft');
  const swaps = useFindSwaps(trip, pilot);
  // Offline the card still shows the last answers; asking again needs the server.
  const online = useOnline();
  // A trip added offline and not sent yet: nothing can be done with it until the server has it.
  const unsent = isUnsentTrip(trip.id);
  const own = unsent ? { disabled: true, title: UNSENT_TRIP_TITLE } : {};
  const server = unsent ? own : online ? {} : { disabled: true, title: NEEDS_CONNECTION };
  const flights = `${trip.flightNoStart}/${trip.flightNoEnd}`;
  const dates = formatRange(trip.startDate, trip.endDate);
  const canChangeAircraft = pilot.fleet === 'SFF' && !trip.isStandby;
  // The trip's outstations (its route, e.g. SEA-LAX), the destinations its crew links are for.
  const destinations = trip.route.split('-').filter((code) => /^[A-Z]{3}$/.test(code));

  const changeAircraft = (aircraft: Aircraft) => updateTrip.mutate({ id: trip.id, changes: { aircraft } });

  const classes = ['trip-card', trip.isStandby ? 'standby' : '', fading ? 'fading' : '', changed ? 'changed' : ''].join(' ');
  return (
    <article className={classes} aria-label={`Trip ${flights} ${dates}`}>
      <div className="trip-top">
        <div className="trip-dates">{dates}</div>
        <div className="trip-badges">
          {changed && <Tag color="gold">Changed by roster</Tag>}
          <PilotTags trip={trip} />
          {/* A plain swap offer is the usual: only a give-away (or either) is worth a tag. */}
          {trip.isSwappable && trip.offerType !== 'swap' && <Tag color="purple">{OFFER_TYPE_LABELS[trip.offerType]}</Tag>}
          {trip.companions !== null && (
            <Tag icon={<TeamOutlined />} title="Companions" aria-label={`${trip.companions} companions`}>
              {trip.companions}
            </Tag>
          )}
          <Button
            size="small"
            type="text"
            className="trip-edit"
            icon={<EditOutlined />}
            onClick={() => onEdit(trip)}
            aria-label={`Edit trip ${flights}`}
            {...own}
          />
        </div>
      </div>
      <div className="trip-main">
        <span className="trip-flights">{flights}</span>
        <span className="trip-route">{trip.isStandby ? `Standby ${trip.route}` : trip.route}</span>
        {canChangeAircraft ? (
          <select
            aria-label={`Aircraft for ${flights}`}
            className="aircraft-native"
            disabled={unsent}
            value={trip.aircraft ?? ''}
            onChange={(event) => changeAircraft(event.target.value as Aircraft)}
          >
            {trip.aircraft === null && <option value="">Aircraft</option>}
            {aircraftChoices('SFF').map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        ) : (
          trip.aircraft && <span className="trip-aircraft">{trip.aircraft}</span>
        )}
      </div>
      {!trip.isStandby && <TripValue trip={trip} />}
      {trip.swapDescription && trip.isSwappable && <p className="trip-description">“{trip.swapDescription}”</p>}
      <CardChanges card={trip.id} />
      {trip.icsDescription && (
        <details className="trip-duty">
          <summary>Roster details{SOURCE_LABELS[trip.source] ? ` (${SOURCE_LABELS[trip.source]})` : ''}</summary>
          <pre>{trip.icsDescription}</pre>
        </details>
      )}
      {onProposals && !trip.isStandby && !unsent && (
        <Suspense fallback={null}>
          <TripSwapStatus trip={trip} onOpen={onProposals} />
        </Suspense>
      )}
      <div className="trip-actions">
        {!trip.isStandby && (
          <>
            <Button icon={<SearchOutlined />} loading={swaps.searching} onClick={swaps.find} {...server}>
              Find Swaps
            </Button>
            {/* Offline too: its changes wait on the device and are sent later (offlineQueue.ts). */}
            <Button icon={<SwapOutlined />} onClick={() => onManage(trip)} {...own}>
              Keep / Swap
            </Button>
            {onCrew && (
              <Button icon={<UserOutlined />} onClick={() => onCrew(trip)} aria-label={`View pilots on trip ${flights}`} {...own}>
                Crew
              </Button>
            )}
            {onCrewLinks && destinations.length > 0 && (
              <Button icon={<LinkOutlined />} onClick={() => onCrewLinks(destinations)} aria-label={`Crew links for ${destinations.join(', ')}`} {...own}>
                Links
              </Button>
            )}
          </>
        )}
      </div>
      {swaps.range && <SwapMatchList tripId={trip.id} range={swaps.range} pilot={pilot} trip={trip} onClear={swaps.clear} />}
    </article>
  );
});
