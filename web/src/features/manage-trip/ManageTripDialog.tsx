import { Button, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MAX_SWAP_DESCRIPTION } from '@crewswap/proto/browser';
import type { Pilot, Trip } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import { queryKeys } from '../../api/keys';
import { swapWindowDays, useSetting } from '../../api/settings';
import { isTrip, storeTrip, tripsApi } from '../../api/trips';
import { useProductName } from '../../api/auth';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import { useConfirm, useNotice } from '../../shared/useConfirm';
import { formatDay, formatRange } from '../trips/format';
import { canPushAlert, isAlreadySent, moveRange, rangeLimits, sentAlertStore, TONE_COLOURS, tripTone } from './manageTrip';
import { useDescriptionAutosave } from './useDescriptionAutosave';

interface Props {
  trip: Trip;
  pilot: Pilot;
  onClose: () => void;
}

/** Manage Trip (Keep / Swap). */
export default function ManageTripDialog({ trip, pilot, onClose }: Props) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const notice = useNotice();
  const productName = useProductName();
  const windowSetting = useSetting('swap_search_days').data;
  const windowDays = swapWindowDays(pilot.searchDayRange, windowSetting);
  const limits = rangeLimits(trip.startDate, windowDays);
  const description = useDescriptionAutosave(trip);
  const [busy, setBusy] = useState<'swap' | 'keep' | 'alert' | 'range' | null>(null);
  const [lastSent, setLastSent] = useState(() => sentAlertStore.get(trip.id));
  const [helpOpen, setHelpOpen] = useState(false);
  const tone = tripTone(trip);
  const colours = TONE_COLOURS[tone];
  const range = { from: trip.searchStartDate ?? '', to: trip.searchEndDate ?? '' };
  const alertInput = {
    isSwappable: trip.isSwappable,
    description: description.text,
    searchStartDate: trip.searchStartDate,
    searchEndDate: trip.searchEndDate,
    lastSent,
  };

  const remember = (sent: typeof lastSent) => {
    setLastSent(sent);
    if (sent) sentAlertStore.set(trip.id, sent);
    else sentAlertStore.clear(trip.id);
  };

  const offer = async () => {
    setBusy('swap');
    try {
      await description.flush();
      const text = description.text.trim();
      const updated = await tripsApi.setSwappable(trip.id, {
        isSwappable: true,
        requested: false,
        swapDescription: text === '' ? null : text,
        searchStartDate: trip.searchStartDate,
        searchEndDate: trip.searchEndDate,
      });
      storeTrip(queryClient, updated);
      void notice(
        'Trip Offered for Swap',
        'Your trip is now offered for swap. Pilots who can fly it will see it in Find Swaps. Add or change the description and use Push Alert to tell them what you are looking for.',
      );
    } catch (error) {
      toast.error('Error', `Failed to update ${productName} status: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };

  const cancelOffer = async () => {
    const ok = await confirm({
      title: 'Cancel Swap Offer?',
      content: 'Your trip will no longer be offered for swap and other pilots will not see it in Find Swaps.',
      okText: 'Cancel Offer',
      cancelText: 'Keep Offer',
      danger: true,
    });
    if (!ok) return;
    setBusy('swap');
    try {
      storeTrip(queryClient, await tripsApi.setSwappable(trip.id, { isSwappable: false }));
      queryClient.setQueryData(queryKeys.matches(trip.id), null);
      remember(undefined);
    } catch (error) {
      toast.error('Error', `Failed to update ${productName} status: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };

  const toggleKeep = async () => {
    const requested = !trip.requested;
    setBusy('keep');
    try {
      const answer = await tripsApi.setRequested(trip.id, requested);
      // Keep on clears the offer and the search range (pilot spec section 4).
      storeTrip(
        queryClient,
        isTrip(answer)
          ? answer
          : requested
            ? { ...trip, requested, isSwappable: false, searchStartDate: null, searchEndDate: null }
            : { ...trip, requested },
      );
      if (requested) {
        queryClient.setQueryData(queryKeys.matches(trip.id), null);
        remember(undefined);
      }
    } catch (error) {
      toast.error('Error', `Failed to save swap preference: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };

  const changeRange = async (change: { from?: string; to?: string }) => {
    const next = moveRange(range, change);
    setBusy('range');
    try {
      const updated = await tripsApi.setSwappable(trip.id, {
        isSwappable: trip.isSwappable,
        searchStartDate: next.from === '' ? null : next.from,
        searchEndDate: next.to === '' ? null : next.to,
        skipNotification: true,
      });
      storeTrip(queryClient, updated);
    } catch (error) {
      const which = change.from !== undefined ? 'search start date' : 'search end date';
      toast.error('Error', `Failed to update ${which}: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };

  const pushAlert = async () => {
    setBusy('alert');
    try {
      await description.flush();
      await tripsApi.sendNotifications(trip.id);
      remember({
        description: description.text.trim(),
        searchStartDate: trip.searchStartDate,
        searchEndDate: trip.searchEndDate,
      });
      toast.success('✓ Sent', 'Swap notifications sent to other pilots');
    } catch (error) {
      toast.error('Error', `Failed to send notifications: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };

  const close = () => {
    void description.flush();
    onClose();
  };

  const sent = isAlreadySent(alertInput);

  return (
    <AppModal
      open
      title="Manage Trip"
      onCancel={close}
      footer={<Button onClick={close}>Close</Button>}
      styles={{ container: { background: colours.background, borderTop: `6px solid ${colours.border}` }, header: { background: 'transparent' } }}
    >
      <div className="stack" data-tone={tone}>
        <p className="manage-summary">
          <strong>
            {trip.flightNoStart}/{trip.flightNoEnd}
          </strong>{' '}
          {trip.route} · {formatRange(trip.startDate, trip.endDate)}
        </p>
        <div className="manage-buttons">
          <Button
            size="large"
            className={trip.requested ? 'keep-on' : undefined}
            type={trip.requested ? 'primary' : 'default'}
            aria-pressed={trip.requested}
            loading={busy === 'keep'}
            disabled={busy !== null && busy !== 'keep'}
            onClick={toggleKeep}
          >
            {trip.requested ? 'Kept' : 'Keep'}
          </Button>
          <Button
            size="large"
            danger={trip.isSwappable}
            type={trip.isSwappable ? 'primary' : 'default'}
            aria-pressed={trip.isSwappable}
            loading={busy === 'swap'}
            disabled={busy !== null && busy !== 'swap'}
            onClick={trip.isSwappable ? cancelOffer : offer}
          >
            {trip.isSwappable ? 'Offered for Swap' : 'Swap'}
          </Button>
        </div>
        <p className="muted small">
          {tone === 'offered'
            ? 'This trip is offered for swap.'
            : tone === 'kept'
              ? 'You are keeping this trip.'
              : 'Press Swap to offer this trip, or Keep to mark it as one you want to keep.'}
        </p>

        <label className="field-label" htmlFor="swap-description">
          Swap description
        </label>
        <Input.TextArea
          id="swap-description"
          value={description.text}
          maxLength={MAX_SWAP_DESCRIPTION}
          showCount
          autoSize={{ minRows: 2, maxRows: 4 }}
          placeholder="What would you like in exchange?"
          onChange={(event) => description.change(event.target.value)}
        />

        <div className="inline-row">
          <span className="field-label">Find &amp; Alert date range</span>
          <Button type="link" size="small" onClick={() => setHelpOpen(true)}>
            Help
          </Button>
        </div>
        <div className="form-grid">
          <div>
            <label className="field-label small" htmlFor="search-from">
              From
            </label>
            <Input
              id="search-from"
              type="date"
              min={limits.min}
              max={limits.max}
              value={range.from}
              disabled={busy === 'range'}
              onChange={(event) => changeRange({ from: event.target.value })}
            />
          </div>
          <div>
            <label className="field-label small" htmlFor="search-to">
              To
            </label>
            <Input
              id="search-to"
              type="date"
              min={range.from || limits.min}
              max={limits.max}
              value={range.to}
              disabled={busy === 'range'}
              onChange={(event) => changeRange({ to: event.target.value })}
            />
          </div>
        </div>

        <Button
          type="primary"
          block
          size="large"
          className={sent ? 'push-alert sent' : 'push-alert'}
          loading={busy === 'alert'}
          disabled={!canPushAlert(alertInput) || (busy !== null && busy !== 'alert')}
          onClick={pushAlert}
        >
          {sent ? '✓ Sent' : 'Push Alert'}
        </Button>
      </div>
      <AppModal
        open={helpOpen}
        title="Find & Alert date range"
        onCancel={() => setHelpOpen(false)}
        footer={<Button onClick={() => setHelpOpen(false)}>Close</Button>}
      >
        <p>
          Find Swaps shows offers that start between these dates, and Push Alert tells the pilots whose trips start in
          this range about your offer. The range can be at most {windowDays} days either side of your trip&apos;s start
          ({formatDay(limits.min)} to {formatDay(limits.max)}). Leave it empty to use that whole window.
        </p>
      </AppModal>
    </AppModal>
  );
}
