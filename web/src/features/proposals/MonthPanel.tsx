import type { MonthTotals, PilotMonthQuery } from '@crewswap/proto';
import { formatBlock } from '@crewswap/proto/browser';
import { usePilotMonth } from '../../api/pilotMonth';

const ROWS: [string, (totals: MonthTotals) => string][] = [
  ['Block', (totals) => formatBlock(totals.blockMinutes)],
  ['Duty', (totals) => formatBlock(totals.dutyMinutes)],
  ['Days away', (totals) => String(totals.daysAway)],
  ['Days off', (totals) => String(totals.daysOff)],
];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** What a swap does to my month (issue 55): its totals now and after, before I propose. */
export function MonthPanel({ query }: { query: PilotMonthQuery }) {
  const month = usePilotMonth(query);
  const [year, number] = query.month.split('-');
  const title = `${MONTHS[Number(number) - 1]} ${year}`;
  if (month.isError) return <p className="proposal-month">Your month could not be worked out.</p>;
  if (!month.data) return <p className="proposal-month">Working out your month…</p>;
  const { totals, after } = month.data;
  const unknown = Math.max(totals.tripsWithoutTimes, after?.tripsWithoutTimes ?? 0);
  return (
    <table className="proposal-month" aria-label={`Your month: ${title}`}>
      <thead>
        <tr>
          <th>{title}</th>
          <th>Now</th>
          <th>After the swap</th>
        </tr>
      </thead>
      <tbody>
        {ROWS.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value(totals)}</td>
            <td>{after ? value(after) : '–'}</td>
          </tr>
        ))}
      </tbody>
      {unknown > 0 && (
        <caption>
          {unknown} {unknown === 1 ? 'trip has' : 'trips have'} no times: not in block and duty
        </caption>
      )}
    </table>
  );
}
