import { Tag } from 'antd';
import type { Legality } from '@crewswap/proto';

/**
 * Whether a pilot may fly a trip under the flight time limits (issue 55): 'Legal', 'Not legal'
 * with the limits' sentences under it, or 'Times unknown' when the roster does not give them.
 */
export function LegalityTag({ legality }: { legality: Legality }) {
  if (legality.legal === 'unknown') return <Tag title="The trips' report and release times are not known">Times unknown</Tag>;
  if (legality.legal) return <Tag color="green">Legal</Tag>;
  return (
    <span className="legality">
      <Tag color="red">Not legal</Tag>
      {legality.reasons.map((reason) => (
        <small key={reason} className="legality-reason">
          {reason}
        </small>
      ))}
    </span>
  );
}
