import { ArrowRightOutlined, CheckCircleTwoTone } from '@ant-design/icons';
import { theme } from 'antd';
import type { RosterTripChange, RosterUploadResult } from '@crewswap/proto';
import { rosterChangeSummary } from '@crewswap/proto/browser';
import { formatRange } from '../../shared/format';

/** A trip in the list of roster changes: 'VS007/VS008 LAX (B787), 8 Jan - 11 Jan 2027'. */
function tripName(trip: NonNullable<RosterTripChange['before']>): string {
  return `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}${trip.aircraft ? ` (${trip.aircraft})` : ''}, ${formatRange(trip.startDate, trip.endDate)}`;
}

/**
 * The result's first line: '9 trips added'; with changes to earlier rosters or trips skipped, each
 * count: '12 added, 2 skipped', '1 added, 1 changed, 1 removed, 2 skipped'.
 */
export function resultSummary(result: RosterUploadResult): string {
  const changed = result.changedCount + result.removedCount > 0;
  if (!changed && result.skippedCount === 0) return `${result.processedCount} ${result.processedCount === 1 ? 'trip' : 'trips'} added`;
  const counts = changed ? rosterChangeSummary(result.addedCount, result.changedCount, result.removedCount) : `${result.processedCount} added`;
  return result.skippedCount > 0 ? `${counts}, ${result.skippedCount} skipped` : counts;
}

/**
 * What a roster import did, the same wherever a roster comes in (an upload in the Upload Roster
 * dialog, the first fetch of a roster address): the summary with the skipped count, each trip
 * added, changed (before and after) or removed, the duplicates, the conflicts and the trips skipped
 * with their reasons. `label` names the block for assistive technology.
 */
export default function RosterUploadResultView({ result, label = 'Upload result' }: { result: RosterUploadResult; label?: string }) {
  const { token } = theme.useToken();
  return (
    <div className="roster-result" aria-label={label}>
      <p>
        <CheckCircleTwoTone twoToneColor={token.colorSuccess} /> <strong>{resultSummary(result)}</strong>
      </p>
      {result.changedCount + result.removedCount > 0 && (
        <ul className="roster-changes" aria-label="Roster changes">
          {result.changes.map((change) => (
            <li key={`${change.kind}-${change.tripId}`}>
              {change.kind === 'changed' ? (
                <>
                  Changed: {tripName(change.before!)} <ArrowRightOutlined aria-label="now" /> {tripName(change.after!)}
                </>
              ) : change.kind === 'removed' ? (
                <>Removed: {tripName(change.before!)}</>
              ) : (
                <>Added: {tripName(change.after!)}</>
              )}
            </li>
          ))}
        </ul>
      )}
      {result.duplicateCount > 0 && <p>{result.duplicateCount} already in your trips (duplicates skipped)</p>}
      {result.conflicts.length > 0 && (
        <>
          <p>Not added, they overlap trips you hold:</p>
          <ul>
            {result.conflicts.map((conflict) => (
              <li key={conflict}>{conflict}</li>
            ))}
          </ul>
        </>
      )}
      {result.skipped.length > 0 && (
        <>
          <p>Skipped:</p>
          <ul>
            {result.skipped.map(({ trip, reason }) => (
              <li key={trip}>
                {trip}: {reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
