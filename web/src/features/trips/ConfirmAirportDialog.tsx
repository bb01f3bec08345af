import { Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { iataApi, type IataList } from '../../api/iata';
import { queryKeys } from '../../api/keys';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';

/** Confirm Valid Airport: adds an unknown 3-letter code to the IATA list. */
export function ConfirmAirportDialog({ code, onClose, onAdded }: { code: string; onClose: () => void; onAdded: () => void }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const add = async () => {
    setBusy(true);
    try {
      await iataApi.add({ iataCode: code });
      queryClient.setQueryData<IataList>(queryKeys.iataCodes, (list) =>
        list ? { ...list, codes: new Set([...list.codes, code]) } : list,
      );
      toast.success('Airport Code Added', `${code} has been added to the airport database.`);
      onAdded();
    } catch {
      toast.error('Error', 'Failed to add airport code to database.');
      onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppModal
      open
      title="Confirm Valid Airport"
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="add" type="primary" loading={busy} onClick={add}>
          Add {code}
        </Button>,
      ]}
    >
      <p>
        <strong>{code}</strong> is not in our airport database. Is it a valid IATA airport code? Adding it makes it
        available to every pilot.
      </p>
    </AppModal>
  );
}
