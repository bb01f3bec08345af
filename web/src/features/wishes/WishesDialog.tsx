import { Alert, Button, Empty, Select, Spin, Tag } from 'antd';
import { useState } from 'react';
import type { Wish, WishBody } from '@crewswap/proto';
import { londonToday, MAX_WISHES } from '@crewswap/proto/browser';
import { errorMessage } from '../../api/client';
import { useTrips } from '../../api/trips';
import { useDeleteWish, useSaveWish, useWishes } from '../../api/wishes';
import { AppModal } from '../../shared/AppModal';
import { DateField } from '../../shared/DateField';
import { formatNumericDate } from '../../shared/format';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import { toast } from '../../shared/toast';
import '../../shared/dialogRows.css';
import './wishes.css';

type Draft = { id?: string; destinations: string[]; startDate: string; endDate: string; forTripId: string | null };
const EMPTY: Draft = { destinations: [], startDate: '', endDate: '', forTripId: null };

const draftOf = (wish: Wish): Draft => ({ id: wish.id, destinations: wish.destinations, startDate: wish.startDate ?? '', endDate: wish.endDate ?? '', forTripId: wish.forTripId });
const bodyOf = (draft: Draft): WishBody => ({
  destinations: draft.destinations,
  startDate: draft.startDate || null,
  endDate: draft.endDate || null,
  forTripId: draft.forTripId,
});
const numeric = (iso: string | null) => (iso ? formatNumericDate(iso) : '…');
const datesOf = (wish: Wish) => (wish.startDate || wish.endDate ? `${numeric(wish.startDate)} to ${numeric(wish.endDate)}` : 'Any dates');

/** Wishes (header): what the pilot wants; a new offer that matches one alerts them, naming it. */
export default function WishesDialog({ onClose }: { onClose: () => void }) {
  const wishes = useWishes();
  const trips = useTrips();
  const save = useSaveWish();
  const remove = useDeleteWish();
  const [draft, setDraft] = useState<Draft | null>(null);
  const today = londonToday();
  const upcoming = (trips.data ?? []).filter((trip) => trip.startDate >= today && !trip.isStandby);
  const tripName = (id: string | null) => {
    const trip = upcoming.find((t) => t.id === id);
    return trip ? `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}, ${formatNumericDate(trip.startDate)}` : 'my trip';
  };
  const list = wishes.data ?? [];

  const submit = () => {
    if (!draft) return;
    save.mutate(
      { id: draft.id, body: bodyOf(draft) },
      {
        onSuccess: () => {
          toast.success('Wish Saved', 'You will be alerted when a matching offer appears.');
          setDraft(null);
        },
      },
    );
  };

  return (
    <AppModal title="Wishes" onCancel={onClose} width={560}>
      <p className="dialog-note">Tell us where you want to go. When a pilot offers a trip that matches a wish and suits one of your trips, you get an alert naming the wish.</p>
      {wishes.isLoading && <Spin />}
      {waitsForNetwork(wishes) && <NotKept what="Your wishes list" />}
      {wishes.isError && <Alert type="error" showIcon title="Failed to load your wishes" description={errorMessage(wishes.error)} />}
      {wishes.data && list.length === 0 && !draft && <Empty description="No wishes yet" />}
      {list.map((wish) => (
        <div className="dialog-row" key={wish.id} data-testid="wish">
          <div>
            <div>
              {wish.destinations.map((code) => (
                <Tag key={code}>{code}</Tag>
              ))}
            </div>
            <div className="dialog-note">
              {datesOf(wish)}
              {wish.forTripId ? ` · only offers that could take ${tripName(wish.forTripId)}` : ''}
            </div>
            <div className="wish-count">{wish.matchingOffers === 1 ? '1 matching offer' : `${wish.matchingOffers} matching offers`}</div>
          </div>
          <div className="wish-actions">
            <Button size="small" onClick={() => setDraft(draftOf(wish))}>
              Edit
            </Button>
            <Button size="small" danger loading={remove.isPending && remove.variables === wish.id} onClick={() => remove.mutate(wish.id, { onSuccess: () => toast.success('Wish Deleted') })}>
              Delete
            </Button>
          </div>
        </div>
      ))}
      {draft ? (
        <div className="wish-form">
          <label htmlFor="wish-destinations">Destinations</label>
          <Select
            id="wish-destinations"
            mode="tags"
            tokenSeparators={[',', ' ']}
            placeholder="e.g. JFK, LAX"
            value={draft.destinations}
            onChange={(codes: string[]) => setDraft({ ...draft, destinations: codes.map((code) => code.trim().toUpperCase()).filter(Boolean) })}
            open={false}
          />
          <div className="wish-dates">
            <div>
              <label htmlFor="wish-start">From</label>
              <DateField id="wish-start" value={draft.startDate} onChange={(startDate) => setDraft({ ...draft, startDate })} />
            </div>
            <div>
              <label htmlFor="wish-end">To</label>
              <DateField id="wish-end" min={draft.startDate || undefined} value={draft.endDate} onChange={(endDate) => setDraft({ ...draft, endDate })} />
            </div>
          </div>
          <label htmlFor="wish-trip">Only trips that could take</label>
          <Select
            id="wish-trip"
            allowClear
            placeholder="Any of my trips"
            value={draft.forTripId ?? undefined}
            onChange={(id?: string) => setDraft({ ...draft, forTripId: id ?? null })}
            options={upcoming.map((trip) => ({ value: trip.id, label: tripName(trip.id) }))}
          />
          <div className="wish-actions">
            <Button onClick={() => setDraft(null)}>Cancel</Button>
            <Button type="primary" loading={save.isPending} disabled={draft.destinations.length === 0} onClick={submit}>
              Save Wish
            </Button>
          </div>
        </div>
      ) : (
        <Button type="dashed" block disabled={list.length >= MAX_WISHES || !wishes.data} onClick={() => setDraft(EMPTY)}>
          {list.length >= MAX_WISHES ? `You can save up to ${MAX_WISHES} wishes` : 'Add Wish'}
        </Button>
      )}
    </AppModal>
  );
}
