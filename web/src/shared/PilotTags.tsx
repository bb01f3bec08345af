import { Tag } from 'antd';
import type { Trip } from '@crewswap/proto';

/** The S, T and K letters a pilot's trip carries, the same on the pilot's own trips and on their crew. */
export function PilotTags({ trip }: { trip: Pick<Trip, 'isSwappable' | 'training' | 'requested'> }) {
  return (
    <>
      {trip.isSwappable && (
        <Tag color="red" title="Offered for swap">
          S
        </Tag>
      )}
      {trip.training && (
        <Tag color="blue" title="Training">
          T
        </Tag>
      )}
      {trip.requested && (
        <Tag color="green" title="Keep">
          K
        </Tag>
      )}
    </>
  );
}
