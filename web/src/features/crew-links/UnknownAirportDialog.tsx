import { useAddIataCode } from '../../api/iata';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';

/** Unknown Airport Code: a code not in the IATA list may be added to it ('Add Code'). */
export function UnknownAirportDialog({ code, onClose, onAdded }: { code: string; onClose: () => void; onAdded: (code: string) => void }) {
  const add = useAddIataCode();
  return (
    <AppModal
      open
      title="Unknown Airport Code"
      okText="Add Code"
      confirmLoading={add.isPending}
      onCancel={onClose}
      onOk={() =>
        add.mutate(code, {
          onSuccess: () => {
            toast.success('Airport Code Added', `${code} has been added to the airport database.`);
            onAdded(code);
          },
          onError: onClose,
        })
      }
    >
      <p>
        <strong>{code}</strong> is not in our airport database. If it is a real IATA airport code, add it and every
        pilot can use it.
      </p>
    </AppModal>
  );
}
