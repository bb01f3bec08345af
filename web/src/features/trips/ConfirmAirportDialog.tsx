import { useAddIataCode } from '../../api/iata';
import { AppModal, okAction } from '../../shared/AppModal';
import { toast } from '../../shared/toast';

/** Confirm Valid Airport: adds an unknown 3-letter code to the IATA list. */
export function ConfirmAirportDialog({ code, onClose, onAdded = onClose }: { code: string; onClose: () => void; onAdded?: () => void }) {
  const addCode = useAddIataCode();

  const add = () =>
    addCode.mutate(code, {
      onSuccess: () => {
        toast.success('Airport Code Added', `${code} has been added to the airport database.`);
        onAdded();
      },
      onError: onClose,
    });

  return (
    <AppModal title="Confirm Valid Airport" onCancel={onClose} {...okAction(`Add ${code}`, add, addCode)}>
      <p>
        <strong>{code}</strong> is not in our airport database. Is it a valid IATA airport code? Adding it makes it
        available to every pilot.
      </p>
    </AppModal>
  );
}
