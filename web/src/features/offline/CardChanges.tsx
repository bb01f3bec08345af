import { Button, Tag } from 'antd';
import { useCardChanges } from '../../api/offlineQueue';
import './offline.css';

/**
 * On a card: its changes waiting for the network ('Waiting to send'), or the server's sentence
 * when one it was sent later refused (the trip was removed, the proposal taken): that change was
 * dropped and the card shows the server's data again.
 */
export function CardChanges({ card }: { card: string }) {
  const { waiting, refusal, dismiss } = useCardChanges(card);
  if (waiting) {
    return (
      <Tag color="gold" className="card-waiting" role="status">
        Waiting to send
      </Tag>
    );
  }
  if (!refusal) return null;
  return (
    <p className="card-refusal" role="alert">
      Not saved: {refusal}
      {/* A new trip the server refused is only on this device: the pilot clears it away. */}
      {dismiss && (
        <Button type="link" size="small" onClick={dismiss}>
          Dismiss
        </Button>
      )}
    </p>
  );
}
