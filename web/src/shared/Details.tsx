import { Fragment, type ReactNode } from 'react';

/** Labels and their values, as the confirmation and details dialogs list them; a row with no value is left out. */
export function Details({ rows }: { rows: Array<[label: string, value: ReactNode]> }) {
  return (
    <dl className="details">
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
    </dl>
  );
}
