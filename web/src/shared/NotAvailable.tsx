import { AppModal } from './AppModal';

/** Master Roster is off: Trip Search, the Master and the Crossover Calendars are not available (pilot spec section 6). */
export function NotAvailable({ feature, onClose }: { feature: string; onClose: () => void }) {
  return (
    <AppModal title="Not Available" onCancel={onClose} width={420}>
      <p>{feature} is only available with Master Roster ON.</p>
      <p>To use it, turn Master Roster ON in your profile settings (tap your name at the top, then Edit My Details).</p>
    </AppModal>
  );
}
