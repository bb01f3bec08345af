import { lazy, startTransition, Suspense, useCallback, useDeferredValue, useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Pilot, Trip } from '@crewswap/proto';
import { useLogout } from '../../api/auth';
import { ApiError, endSession, errorMessage } from '../../api/client';
import { useOnline } from '../../api/online';
import { useSetting } from '../../api/settings';
import { useDeleteTrip, useDeletingTripIds, useTrips } from '../../api/trips';
import { PageLoading } from '../../shared/PageLoading';
import { toast } from '../../shared/toast';
import { NARROW_QUERY } from '../../shared/useIsNarrow';
import { useNearView } from '../../shared/useNearView';
import { useConfirm } from '../../shared/useConfirm';
import { forgetChangedTrips, useChangedTrips } from '../../shared/changedTrips';
import { usePendingRosterFile } from '../roster/pendingRoster';
import { EmptyState } from './EmptyState';
import { TripCard } from './TripCard';
import { TripsHeader } from './TripsHeader';

const TripFormDialog = lazy(() => import('./TripFormDialog'));
const ManageTripDialog = lazy(() => import('../manage-trip/ManageTripDialog'));
const EditDetailsDialog = lazy(() => import('../profile/EditDetailsDialog'));
const RosterUploadDialog = lazy(() => import('../roster/RosterUploadDialog'));
// Crew links are their own area of the app: their code loads when first opened.
const CrewLinks = lazy(() => import('../crew-links/CrewLinks'));
const NotificationPreferencesDialog = lazy(() => import('../notifications/NotificationPreferencesDialog'));
const WishesDialog = lazy(() => import('../wishes/WishesDialog'));
const BellList = lazy(() => import('../bell/BellList'));
const CrewOnTripDialog = lazy(() => import('../crew/CrewOnTripDialog'));
// The calendars are their own chunk: the grid and its three views load when first opened.
const Calendars = lazy(() => import('../calendars/Calendars'));
const TripSearchDialog = lazy(() => import('../trip-search/TripSearchDialog'));
const TechSupportDialog = lazy(() => import('../support/TechSupportDialog'));
const ProposalsDialog = lazy(() => import('../proposals/ProposalsDialog'));
const PickUpDialog = lazy(() => import('../pick-up/PickUpDialog'));

export const MIN_SPINNER_MS = 500;
// About a screen of cards: a phone shows four, a desktop three rows of three or four.
const PHONE_CARDS_PER_STEP = 4;
const DESKTOP_CARDS_PER_STEP = 12;
// More cards are drawn while the list's end is within half a screen below the view.
const DRAW_AHEAD = '0px 0px 50% 0px';

/**
 * How many of `total` cards to show: a screen's worth at first, then a step more whenever the
 * list's end (`end`) comes within half a screen of view, as the pilot scrolls. A pilot with forty
 * trips does not wait on forty cards before the page answers a tap (issue 40). Without
 * IntersectionObserver (an old browser, the unit tests) every card is drawn, a step after each paint.
 */
function useShownCount(total: number, end: RefObject<HTMLElement | null>): number {
  const [step] = useState(() => (window.matchMedia(NARROW_QUERY).matches ? PHONE_CARDS_PER_STEP : DESKTOP_CARDS_PER_STEP));
  const [shown, setShown] = useState(step);
  const more = () => startTransition(() => setShown((count) => count + step));
  const canWatch = typeof IntersectionObserver !== 'undefined';
  useNearView(end, canWatch && shown < total, more, DRAW_AHEAD, shown);
  useEffect(() => {
    if (canWatch || shown >= total) return undefined;
    const timer = setTimeout(more, 0);
    return () => clearTimeout(timer);
  }, [canWatch, shown, total]);
  return shown;
}

type Dialog =
  | { kind: 'add' }
  | { kind: 'upload'; file?: File }
  | { kind: 'notifications' }
  | { kind: 'wishes' }
  | { kind: 'alerts' }
  | { kind: 'edit'; tripId: string }
  | { kind: 'manage'; tripId: string }
  | { kind: 'details' }
  | { kind: 'crew-links'; destinations: readonly string[] }
  | { kind: 'crew'; tripId: string }
  | { kind: 'calendars' }
  | { kind: 'trip-search' }
  | { kind: 'support' }
  | { kind: 'proposals' }
  | { kind: 'pick-up' }
  | null;

export function TripsPage({ pilot }: { pilot: Pilot }) {
  const confirm = useConfirm();
  const trips = useTrips();
  const online = useOnline();
  // Asked for with the trips: each card's Find Swaps reads it (FindSwaps.tsx).
  useSetting('swap_search_days');
  const logoutCall = useLogout();
  const deleteTripCall = useDeleteTrip();
  const fading = useDeletingTripIds();
  const changed = useChangedTrips();
  // Changed trips stay highlighted until seen: the page left or the app put away with them shown.
  useEffect(() => {
    const hidden = () => document.visibilityState === 'hidden' && forgetChangedTrips();
    document.addEventListener('visibilitychange', hidden);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      forgetChangedTrips();
    };
  }, []);
  const location = useLocation();
  const navigate = useNavigate();
  // /upload-roster opens the upload dialog over the trips page.
  // A proposal's push opens /?view=proposals.
  const [dialog, setDialog] = useState<Dialog>(
    location.pathname === '/upload-roster' ? { kind: 'upload' } : new URLSearchParams(location.search).get('view') === 'proposals' ? { kind: 'proposals' } : null,
  );
  const closeUpload = () => {
    setDialog(null);
    if (location.pathname === '/upload-roster' || location.pathname === '/share-roster') navigate('/', { replace: true });
  };
  // A roster file opened with the app or shared to it goes straight into the upload.
  usePendingRosterFile((file) => setDialog({ kind: 'upload', file }));
  const [refreshing, setRefreshing] = useState(false);
  const dialogTrip = dialog && 'tripId' in dialog ? trips.data?.find((t) => t.id === dialog.tripId) : undefined;
  // Forty cards take a while on a phone: they are rendered in the background, a little at a time.
  const list = useDeferredValue(trips.data);
  const listEnd = useRef<HTMLDivElement>(null);
  const shown = useShownCount(list?.length ?? 0, listEnd);

  // The same functions at every render: a card is drawn again only when its own trip changes.
  const editTrip = useCallback((trip: Trip) => setDialog({ kind: 'edit', tripId: trip.id }), []);
  const manageTrip = useCallback((trip: Trip) => setDialog({ kind: 'manage', tripId: trip.id }), []);
  const tripCrewLinks = useCallback((destinations: readonly string[]) => setDialog({ kind: 'crew-links', destinations }), []);
  const tripCrew = useCallback((trip: Trip) => setDialog({ kind: 'crew', tripId: trip.id }), []);
  const openProposals = useCallback(() => setDialog({ kind: 'proposals' }), []);

  // An alert leads where its push would: a proposal's to Swap Proposals, the others to the trips.
  const followAlert = (url: string) => setDialog(new URL(url, window.location.origin).searchParams.get('view') === 'proposals' ? { kind: 'proposals' } : null);

  const refresh = async () => {
    setRefreshing(true);
    await Promise.all([trips.refetch(), new Promise((resolve) => setTimeout(resolve, MIN_SPINNER_MS))]);
    setRefreshing(false);
  };

  const logout = async () => {
    const ok = await confirm({ title: 'Confirm Logout', content: 'Are you sure you want to log out?', okText: 'Logout' });
    if (!ok) return;
    logoutCall.mutate(undefined, { onSuccess: () => endSession() });
  };

  const deleteTrip = (trip: Trip) =>
    deleteTripCall.mutate(trip, {
      onSuccess: () => toast.success('Trip Deleted', `${trip.flightNoStart}/${trip.flightNoEnd} has been deleted.`),
    });

  return (
    <div className="app-shell">
      <TripsHeader
        pilot={pilot}
        refreshing={refreshing}
        onAddTrip={() => setDialog({ kind: 'add' })}
        onUploadRoster={() => setDialog({ kind: 'upload' })}
        onCrewLinks={() => setDialog({ kind: 'crew-links', destinations: [] })}
        onCalendars={() => setDialog({ kind: 'calendars' })}
        onTripSearch={() => setDialog({ kind: 'trip-search' })}
        onTechSupport={() => setDialog({ kind: 'support' })}
        onProposals={() => setDialog({ kind: 'proposals' })}
        onPickUp={() => setDialog({ kind: 'pick-up' })}
        onRefresh={refresh}
        onEditDetails={() => setDialog({ kind: 'details' })}
        onNotifications={() => setDialog({ kind: 'notifications' })}
        onAlerts={() => setDialog({ kind: 'alerts' })}
        onWishes={() => setDialog({ kind: 'wishes' })}
        onLogout={logout}
      />
      <main className="trips-main">
        {(trips.isLoading || (trips.data && !list)) && (
          <PageLoading text="Loading your trips..." />
        )}
        {/* Offline with trips kept, the banner says it all: the failed refresh is not news. */}
        {trips.isError &&
          !(trips.data && !online) &&
          (trips.error instanceof ApiError && trips.error.status === 401 ? (
            // No session behind the page (the expiry handling goes to the login page when it applies).
            <p className="page-center">Please log in to view your trips.</p>
          ) : (
            <p role="alert">Failed to load trips: {errorMessage(trips.error)}</p>
          ))}
        {trips.data && trips.data.length === 0 && (
          <EmptyState
            onAddTrip={() => setDialog({ kind: 'add' })}
            onUploadRoster={() => setDialog({ kind: 'upload' })}
            onNotifications={() => setDialog({ kind: 'notifications' })}
            onTechSupport={() => setDialog({ kind: 'support' })}
          />
        )}
        {list && list.length > 0 && (
          <div className="trip-list">
            {list.slice(0, shown).map((trip) => (
              <TripCard
                key={trip.id}
                trip={trip}
                pilot={pilot}
                fading={fading.has(trip.id)}
                changed={changed.has(trip.id)}
                onEdit={editTrip}
                onManage={manageTrip}
                onCrewLinks={tripCrewLinks}
                onCrew={tripCrew}
                onProposals={openProposals}
              />
            ))}
          </div>
        )}
        {list && shown < list.length && <div ref={listEnd} className="trip-list-end" aria-hidden="true" />}
      </main>
      <Suspense fallback={null}>
        {dialog?.kind === 'add' && <TripFormDialog pilot={pilot} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'edit' && dialogTrip && (
          <TripFormDialog pilot={pilot} trip={dialogTrip} onClose={() => setDialog(null)} onDelete={deleteTrip} />
        )}
        {dialog?.kind === 'manage' && dialogTrip && (
          <ManageTripDialog trip={dialogTrip} pilot={pilot} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'upload' && <RosterUploadDialog file={dialog.file} onClose={closeUpload} />}
        {dialog?.kind === 'notifications' && <NotificationPreferencesDialog onClose={() => setDialog(null)} />}
        {dialog?.kind === 'wishes' && <WishesDialog onClose={() => setDialog(null)} />}
        {dialog?.kind === 'alerts' && (
          <BellList onClose={() => setDialog(null)} onPreferences={() => setDialog({ kind: 'notifications' })} onFollow={followAlert} />
        )}
        {dialog?.kind === 'details' && <EditDetailsDialog pilot={pilot} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'crew-links' && <CrewLinks initialDestinations={dialog.destinations} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'crew' && dialogTrip && <CrewOnTripDialog trip={dialogTrip} me={pilot} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'calendars' && <Calendars pilot={pilot} trips={trips.data} tripsError={trips.error} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'trip-search' && <TripSearchDialog pilot={pilot} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'support' && <TechSupportDialog onClose={() => setDialog(null)} />}
        {dialog?.kind === 'proposals' && <ProposalsDialog me={pilot} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'pick-up' && <PickUpDialog pilot={pilot} onClose={() => setDialog(null)} />}
      </Suspense>
    </div>
  );
}
