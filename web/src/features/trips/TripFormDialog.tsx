import { Alert, Button, Checkbox, Form, Input, Select } from 'antd';
import { useMemo, useState } from 'react';
import { flightNumber, isLtcCaptain, londonToday, padFlightDigits, shapeFlightDigits, withoutHomeBases } from '@crewswap/proto/browser';
import type { Pilot, Trip } from '@crewswap/proto';
import { ApiError } from '../../api/client';
import { useIataCodes } from '../../api/iata';
import { useOnline } from '../../api/online';
import { useAddTrip, useUpdateTrip } from '../../api/trips';
import { AppModal, okAction } from '../../shared/AppModal';
import { COMPANION_OPTIONS } from '../../shared/options';
import { formatRange } from '../../shared/format';
import { DateField } from '../../shared/DateField';
import { ShapedField } from '../../shared/ShapedField';
import { toast } from '../../shared/toast';
import { useConfirm } from '../../shared/useConfirm';
import { ConfirmAirportDialog } from './ConfirmAirportDialog';
import {
  aircraftChoices,
  canSubmitTrip,
  changedFields,
  checkRoute,
  dateError as findDateError,
  EMPTY_TRIP_FORM,
  flightNumberProblem,
  formFromTrip,
  instantOf,
  isStandbyEntry,
  isUnchanged,
  ROUTE_UNCHECKED_MESSAGE,
  shapeTripRoute,
  tripWarnings,
  warningTexts,
  type TripFormValues,
} from './tripForm';

interface Props {
  pilot: Pilot;
  /** Absent for Add New Trip. */
  trip?: Trip;
  onClose: () => void;
  onDelete?: (trip: Trip) => void;
}

/** Add New Trip and Edit Trip: every rule of pilot spec section 5. */
export default function TripFormDialog({ pilot, trip, onClose, onDelete }: Props) {
  const mode = trip ? 'edit' : 'add';
  const confirm = useConfirm();
  const choices = aircraftChoices(pilot.fleet);
  const [values, setValues] = useState<TripFormValues>(() =>
    trip ? formFromTrip(trip) : { ...EMPTY_TRIP_FORM, aircraft: choices.length === 1 ? choices[0]! : null },
  );
  const [routeLeft, setRouteLeft] = useState(mode === 'edit');
  const [serverDateError, setServerDateError] = useState<string | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const [addingCode, setAddingCode] = useState<string | null>(null);
  const [offeredCodes, setOfferedCodes] = useState<string[]>([]);
  const addTrip = useAddTrip();
  const updateTrip = useUpdateTrip();
  const iata = useIataCodes();
  const online = useOnline();
  const today = londonToday();

  const set = (patch: Partial<TripFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    if ('startDate' in patch || 'endDate' in patch) {
      setServerDateError(null);
      setAcknowledged(false);
    }
  };

  const dateError = findDateError(values, today) ?? serverDateError;
  const standby = isStandbyEntry(values);
  const routeCheck = iata.data && !standby ? checkRoute(values.route, iata.data, routeLeft) : null;
  const routeError = standby ? null : iata.isError ? ROUTE_UNCHECKED_MESSAGE : (routeCheck?.message ?? null);
  // Offline, an airport outside the list kept on the device cannot be confirmed: the trip waits
  // and the server judges it when it goes (its refusal is the card's sentence).
  const routeForServer = !online && routeError !== null && (routeError === ROUTE_UNCHECKED_MESSAGE || (routeCheck?.unknown.length ?? 0) > 0);
  const blockingRouteError = routeForServer ? null : routeError;
  const warnings = tripWarnings(values.startDate, values.endDate, today);
  const datesChanged = !trip || values.startDate !== trip.startDate || values.endDate !== trip.endDate;
  const shownWarnings = datesChanged ? warningTexts(warnings) : [];
  const changes = useMemo(() => (trip ? changedFields(trip, values) : {}), [trip, values]);
  const submittable = canSubmitTrip(values, { dateError, routeError: blockingRouteError });

  const leaveRoute = () => {
    // The home bases go as an import drops them (decisions.md): 'LHR-JFK' is the trip to JFK.
    const route = withoutHomeBases(values.route.replace(/-$/, ''));
    if (route !== values.route) set({ route });
    setRouteLeft(true);
    const check = iata.data && !isStandbyEntry({ ...values, route }) ? checkRoute(route, iata.data, true) : null;
    const single = check?.unknown.length === 1 ? check.unknown[0]! : null;
    // Offer to add an unknown code once; the error under the field keeps offering it.
    if (single && online && !offeredCodes.includes(single)) {
      setOfferedCodes((codes) => [...codes, single]);
      setAddingCode(single);
    }
  };

  const acknowledgeWarnings = async (texts: string[]): Promise<boolean> => {
    for (const text of texts) {
      if (!(await confirm({ title: 'Please Verify Dates', content: text, okText: 'OK' }))) return false;
    }
    return true;
  };

  /** The server's overlap refusal also stands under the dates until they change. */
  const showOverlap = (error: unknown) => {
    if (error instanceof ApiError && error.status === 409) setServerDateError(error.message);
  };

  const add = async () => {
    const problem = flightNumberProblem(values, 'add');
    if (problem) return toast.error(problem.title, problem.message);
    if (!submittable) return;
    if (!(await acknowledgeWarnings(warningTexts(warnings)))) return;
    addTrip.mutate(
      {
        flightNoStart: flightNumber(values.startDigits),
        flightNoEnd: flightNumber(values.endDigits),
        aircraft: standby ? null : values.aircraft,
        route: values.route,
        startDate: values.startDate,
        endDate: values.endDate,
        training: isLtcCaptain(pilot) ? values.training : false,
        requested: values.companions !== null && values.companions > 0,
        companions: values.companions,
        isSwappable: false,
        reportAt: instantOf(values.reportAt),
        releaseAt: instantOf(values.releaseAt),
      },
      {
        // No answer yet (offline): the trip's card says 'Waiting to send'.
        onSuccess: (created) => {
          if (created) toast.success('Trip Added', `${created.flightNoStart}/${created.flightNoEnd} ${formatRange(created.startDate, created.endDate)}`);
          onClose();
        },
        onError: showOverlap,
      },
    );
  };

  const update = async () => {
    if (!trip) return;
    const missing =
      values.route === '' || values.startDate === '' || values.endDate === '' || (values.aircraft === null && !trip.isStandby);
    const problem = missing
      ? { title: 'Missing Information', message: 'Please fill in all required fields before updating the trip.' }
      : flightNumberProblem(values, 'edit');
    if (problem) return toast.error(problem.title, problem.message);
    if (dateError) return toast.error('Date Validation Error', dateError);
    if (blockingRouteError) return toast.error('Route Validation Error', blockingRouteError);
    if (isUnchanged(changes)) return toast.info('No Changes', 'No modifications were made to the trip.');
    if (datesChanged && warnings.far && !acknowledged) {
      return toast.warning('Future Date Warning', 'Please acknowledge the 8-week warning before continuing.');
    }
    if (datesChanged && warnings.long && !acknowledged && !(await acknowledgeWarnings(warningTexts({ long: true, far: false })))) return;
    updateTrip.mutate(
      { id: trip.id, changes },
      {
        onSuccess: () => {
          toast.success('Trip Updated', `${flightNumber(values.startDigits)}/${flightNumber(values.endDigits)}`);
          onClose();
        },
        onError: showOverlap,
      },
    );
  };

  const remove = async () => {
    if (!trip) return;
    const ok = await confirm({
      title: 'Confirm Delete Trip',
      content: `Are you sure you want to delete ${trip.flightNoStart}/${trip.flightNoEnd} (${formatRange(trip.startDate, trip.endDate)})? This cannot be undone.`,
      okText: 'Delete',
      danger: true,
    });
    if (!ok) return;
    onClose();
    onDelete?.(trip);
  };

  return (
    <>
      <AppModal
        title={mode === 'add' ? 'Add New Trip' : 'Edit Trip'}
        onCancel={onClose}
        {...(mode === 'add' ? okAction('Add Trip', add, addTrip) : okAction('Update', update, updateTrip))}
        okButtonProps={{ disabled: mode === 'add' ? !submittable : isUnchanged(changes) }}
        start={
          mode === 'edit' && (
            <Button danger onClick={remove}>
              Delete
            </Button>
          )
        }
      >
        <Form layout="vertical" component="div">
          <div className="form-grid">
            <FlightField id="trip-start-flight" label="Start Flight" placeholder="001" value={values.startDigits} onChange={(startDigits) => set({ startDigits })} />
            <FlightField id="trip-end-flight" label="End Flight" placeholder="002" value={values.endDigits} onChange={(endDigits) => set({ endDigits })} />
          </div>
          <Form.Item
            label="Route"
            htmlFor="trip-route"
            validateStatus={routeError ? (routeForServer ? 'warning' : 'error') : undefined}
            help={
              routeError ? (
                <span>
                  {routeError}
                  {routeForServer && '. Offline: checked when the trip is sent.'}
                  {routeCheck?.unknown.length === 1 && online && (
                    <Button type="link" size="small" onClick={() => setAddingCode(routeCheck.unknown[0]!)}>
                      Add {routeCheck.unknown[0]}
                    </Button>
                  )}
                </span>
              ) : undefined
            }
          >
            <Input
              id="trip-route"
              placeholder="JFK or LAX-SFO"
              autoCapitalize="characters"
              value={values.route}
              maxLength={7}
              onChange={(event) => {
                set({ route: shapeTripRoute(event.target.value, values) });
                setRouteLeft(false);
              }}
              onBlur={leaveRoute}
            />
          </Form.Item>
          <div className="form-grid">
            <Form.Item label="Start Date" htmlFor="trip-start-date">
              <DateField
                id="trip-start-date"
                value={values.startDate}
                onChange={(startDate) => set({ startDate, ...(values.endDate === '' ? { endDate: startDate } : {}) })}
              />
            </Form.Item>
            <Form.Item label="End Date" htmlFor="trip-end-date">
              <DateField id="trip-end-date" value={values.endDate} min={values.startDate || undefined} onChange={(endDate) => set({ endDate })} />
            </Form.Item>
          </div>
          <div className="form-grid">
            <Form.Item label="Report time (optional)" htmlFor="trip-report-at">
              <input id="trip-report-at" className="ant-input" type="datetime-local" value={values.reportAt} onChange={(event) => set({ reportAt: event.target.value })} />
            </Form.Item>
            <Form.Item label="Release time (optional)" htmlFor="trip-release-at">
              <input id="trip-release-at" className="ant-input" type="datetime-local" value={values.releaseAt} onChange={(event) => set({ releaseAt: event.target.value })} />
            </Form.Item>
          </div>
          {dateError && <Alert type="error" showIcon title={dateError} className="form-alert" role="alert" />}
          {!dateError && shownWarnings.length > 0 && (
            <Alert
              type="warning"
              showIcon
              className="form-alert"
              title={
                <div className="stack">
                  {shownWarnings.map((text) => (
                    <p key={text}>{text}</p>
                  ))}
                </div>
              }
              description={
                mode === 'edit' ? (
                  <Checkbox checked={acknowledged} onChange={(event) => setAcknowledged(event.target.checked)}>
                    I have checked the dates
                  </Checkbox>
                ) : undefined
              }
            />
          )}
          <div className="form-grid">
            <Form.Item label="Aircraft" htmlFor="trip-aircraft">
              <Select
                id="trip-aircraft"
                aria-label="Aircraft"
                placeholder="Aircraft"
                value={values.aircraft ?? undefined}
                disabled={choices.length === 1}
                options={choices.map((type) => ({ value: type, label: type }))}
                onChange={(aircraft) => set({ aircraft })}
              />
            </Form.Item>
            <Form.Item label="Companions" htmlFor="trip-companions">
              <Select
                id="trip-companions"
                aria-label="Companions"
                value={values.companions ?? 0}
                options={COMPANION_OPTIONS}
                onChange={(count: number) => set({ companions: count === 0 ? null : count })}
              />
            </Form.Item>
          </div>
          {isLtcCaptain(pilot) && (
            <Checkbox checked={values.training} onChange={(event) => set({ training: event.target.checked })}>
              Training trip
            </Checkbox>
          )}
          {mode === 'add' && iata.data?.fallback && (
            <p className="muted small">Airport list unavailable: checking routes against common airports only.</p>
          )}
        </Form>
      </AppModal>
      {addingCode && <ConfirmAirportDialog code={addingCode} onClose={() => setAddingCode(null)} />}
    </>
  );
}


interface FlightFieldProps {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (digits: string) => void;
}

/** The 3 digits after the fixed VS: digits only while typing, zero-padded when left. */
function FlightField(props: FlightFieldProps) {
  return <ShapedField {...props} prefix={<span className="flight-prefix">VS</span>} inputMode="numeric" shape={shapeFlightDigits} shapeOnBlur={padFlightDigits} />;
}
