import { MASTER_ROSTER_MESSAGES } from '@crewswap/proto/browser';
import { AppModal } from './AppModal';

/** Master Roster is off: Trip Search, the Master and the Crossover Calendars are not available (pilot spec section 6). */
export function NotAvailable({ feature, onClose }: { feature: string; onClose: () => void }) {
  return (
    <AppModal title={MASTER_ROSTER_MESSAGES.notAvailableTitle} onCancel={onClose} width={420}>
      <p>
        <strong>{feature}</strong>: {MASTER_ROSTER_MESSAGES.notAvailable}
      </p>
      <p className="muted">Tap your name at the top of the page to open Edit My Details, where Master Roster is switched ON.</p>
    </AppModal>
  );
}
