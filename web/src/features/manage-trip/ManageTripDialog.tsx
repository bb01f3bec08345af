import { Button, Checkbox, Input, Segmented, Select } from 'antd';
import { useState } from 'react';
import { isLtcCaptain, MAX_SWAP_DESCRIPTION } from '@crewswap/proto/browser';
import type { OfferType, Pilot, Trip } from '@crewswap/proto';
import { swapWindowDays, useSetting } from '../../api/settings';
import { useOfferSwap, usePushAlert, useSetKeep, useSetOfferType, useSetSearchRange, useUpdateTrip, useWithdrawSwap } from '../../api/trips';
import { AppModal } from '../../shared/AppModal';
import { COMPANION_OPTIONS, OFFER_TYPE_OPTIONS } from '../../shared/options';
import { formatDay, formatRange } from '../../shared/format';
import { TripValue } from '../../shared/TripValue';
import { DateField } from '../../shared/DateField';
import { toast } from '../../shared/toast';
import { useConfirm, useNotice } from '../../shared/useConfirm';
import { canPushAlert, isAlreadySent, moveRange, rangeLimits, sentAlertStore, tripTone, useToneColours } from './manageTrip';
import { useDescriptionAutosave } from './useDescriptionAutosave';

interface Props {
  trip: Trip;
  pilot: Pilot;
  onClose: () => void;
}

/** Manage Trip (Keep / Swap). */
export default function ManageTripDialog({ trip, pilot, onClose }: Props) {
  const confirm = useConfirm();
  const notice = useNotice();
  const windowSetting = useSetting('swap_search_days').data;
  const windowDays = swapWindowDays(pilot.searchDayRange, windowSetting);
  const limits = rangeLimits(trip.startDate, windowDays);
  const description = useDescriptionAutosave(trip);
  const offerSwap = useOfferSwap();
  const withdrawSwap = useWithdrawSwap();
  const setOfferType = useSetOfferType();
  // Not offered yet, the choice waits for Swap; offered, it is saved at once.
  const [offerType, setOfferTypeChoice] = useState<OfferType>(trip.offerType);
  const setKeep = useSetKeep();
  const setSearchRange = useSetSearchRange();
  const pushAlert = usePushAlert();
  const setCompanions = useUpdateTrip('Failed to update companions');
  const setTraining = useUpdateTrip('Failed to update training status');
  const swapBusy = offerSwap.isPending || withdrawSwap.isPending || setOfferType.isPending;
  // One change at a time: while one button works, the others wait.
  const busy = swapBusy || setKeep.isPending || setSearchRange.isPending || pushAlert.isPending || setCompanions.isPending || setTraining.isPending;
  const [lastSent, setLastSent] = useState(() => sentAlertStore.get(trip.id));
  const [helpOpen, setHelpOpen] = useState(false);
  const [askSave, setAskSave] = useState(false);
  const tone = tripTone(trip);
  const colours = useToneColours()[tone];
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

  const offer = () =>
    offerSwap.mutate(
      { trip, saveDescription: description.flush, offerType },
      {
        onSuccess: () =>
          void notice(
            'Trip Offered for Swap',
            'Your trip is now offered for swap. Pilots who can fly it will see it in Find Swaps. Add or change the description and use Push Alert to tell them what you are looking for.',
          ),
      },
    );

  const cancelOffer = async () => {
    const ok = await confirm({
      title: 'Cancel Swap Offer?',
      content: 'Your trip will no longer be offered for swap and other pilots will not see it in Find Swaps.',
      okText: 'Cancel Offer',
      cancelText: 'Keep Offer',
      danger: true,
    });
    if (ok) withdrawSwap.mutate(trip, { onSuccess: () => remember(undefined) });
  };

  const changeOfferType = (value: OfferType) => {
    setOfferTypeChoice(value);
    if (trip.isSwappable) setOfferType.mutate({ trip, offerType: value }, { onError: () => setOfferTypeChoice(trip.offerType) });
  };

  const toggleKeep = () => {
    const requested = !trip.requested;
    setKeep.mutate({ trip, requested }, { onSuccess: () => requested && remember(undefined) });
  };

  const changeRange = (change: { from?: string; to?: string }) =>
    setSearchRange.mutate({ trip, range: moveRange(range, change), moved: change.from !== undefined ? 'start' : 'end' });

  const sendAlert = () =>
    pushAlert.mutate(
      { trip, saveDescription: description.flush },
      {
        onSuccess: (sentText) => {
          remember({ description: sentText, searchStartDate: trip.searchStartDate, searchEndDate: trip.searchEndDate });
          toast.success('✓ Sent', 'Swap notifications sent to other pilots');
        },
      },
    );

  // Typed text not yet saved is the pilot's to keep or drop (pilot spec, Dialogs: 'Save Swap
  // Preference?' with Cancel and Discard). Cancel keeps it: back to Manage Trip, saved at once as a
  // close saves it (pilot spec section 4); Discard closes without saving.
  const close = () => {
    if (!description.pending()) return onClose();
    description.pause();
    setAskSave(true);
  };

  const keepAndSave = () => {
    setAskSave(false);
    void description.flush();
  };

  const changeCompanions = (count: number) => setCompanions.mutate({ id: trip.id, changes: { companions: count === 0 ? null : count } });

  const sent = isAlreadySent(alertInput);

  return (
    <AppModal
      title="Manage Trip"
      onCancel={close}
      styles={{ container: { background: colours.background, borderTop: `6px solid ${colours.border}` }, header: { background: 'transparent' } }}
    >
      <div className="stack" data-tone={tone}>
        <p className="manage-summary">
          <strong>
            {trip.flightNoStart}/{trip.flightNoEnd}
          </strong>{' '}
          {trip.route} · {formatRange(trip.startDate, trip.endDate)}
          <br />
          <TripValue trip={trip} />
        </p>
        <div className="manage-buttons">
          <Button
            size="large"
            className={trip.requested ? 'keep-on' : undefined}
            type={trip.requested ? 'primary' : 'default'}
            aria-pressed={trip.requested}
            loading={setKeep.isPending}
            disabled={busy && !setKeep.isPending}
            onClick={toggleKeep}
          >
            {trip.requested ? 'Kept' : 'Keep'}
          </Button>
          <Button
            size="large"
            danger={trip.isSwappable}
            type={trip.isSwappable ? 'primary' : 'default'}
            aria-pressed={trip.isSwappable}
            loading={swapBusy}
            disabled={busy && !swapBusy}
            onClick={trip.isSwappable ? cancelOffer : offer}
          >
            {trip.isSwappable ? 'Offered for Swap' : 'Swap'}
          </Button>
        </div>
        <div>
          <span className="field-label small" id="manage-offer-type">
            Offer as
          </span>
          <Segmented<OfferType> block aria-labelledby="manage-offer-type" options={OFFER_TYPE_OPTIONS} value={offerType} disabled={busy} onChange={changeOfferType} />
        </div>
        <p className="muted small">
          {tone === 'offered'
            ? 'This trip is offered for swap.'
            : tone === 'kept'
              ? 'You are keeping this trip.'
              : 'Press Swap to offer this trip, or Keep to mark it as one you want to keep.'}
        </p>

        <div className={isLtcCaptain(pilot) ? 'form-grid' : undefined}>
          <div>
            <label className="field-label small" htmlFor="manage-companions">
              Companions
            </label>
            <Select
              id="manage-companions"
              style={{ width: '100%' }}
              value={trip.companions ?? 0}
              loading={setCompanions.isPending}
              disabled={busy && !setCompanions.isPending}
              options={COMPANION_OPTIONS}
              onChange={changeCompanions}
            />
          </div>
          {isLtcCaptain(pilot) && (
            <Checkbox
              className="manage-training"
              checked={trip.training}
              disabled={busy}
              onChange={(event) => setTraining.mutate({ id: trip.id, changes: { training: event.target.checked } })}
            >
              Training trip
            </Checkbox>
          )}
        </div>

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
            <DateField
              id="search-from"
              min={limits.min}
              max={limits.max}
              value={range.from}
              disabled={setSearchRange.isPending}
              onChange={(from) => changeRange({ from })}
            />
          </div>
          <div>
            <label className="field-label small" htmlFor="search-to">
              To
            </label>
            <DateField
              id="search-to"
              min={range.from || limits.min}
              max={limits.max}
              value={range.to}
              disabled={setSearchRange.isPending}
              onChange={(to) => changeRange({ to })}
            />
          </div>
        </div>

        <Button
          type="primary"
          block
          size="large"
          className={sent ? 'push-alert sent' : 'push-alert'}
          loading={pushAlert.isPending}
          disabled={!canPushAlert(alertInput) || (busy && !pushAlert.isPending)}
          onClick={sendAlert}
        >
          {sent ? '✓ Sent' : 'Push Alert'}
        </Button>
      </div>
      <AppModal
        open={askSave}
        title="Save Swap Preference?"
        width={420}
        cancelText="Cancel"
        onCancel={keepAndSave}
        extra={
          <Button danger onClick={onClose}>
            Discard
          </Button>
        }
      >
        <p>Your swap description has changes that are not saved yet. Cancel to keep them (they are saved now) and go on editing, or discard them and close.</p>
      </AppModal>
      <AppModal open={helpOpen} title="Find & Alert date range" onCancel={() => setHelpOpen(false)}>
        <p>
          Find Swaps shows offers that start between these dates, and Push Alert tells the pilots whose trips start in
          this range about your offer. The range can be at most {windowDays} days either side of your trip&apos;s start
          ({formatDay(limits.min)} to {formatDay(limits.max)}). Leave it empty to use that whole window.
        </p>
      </AppModal>
    </AppModal>
  );
}
