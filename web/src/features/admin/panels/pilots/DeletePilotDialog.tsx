import { Button } from 'antd';
import type { AdminPilot } from '@crewswap/proto';
import { AppModal } from '../../../../shared/AppModal';
import { toast } from '../../../../shared/toast';
import { useDeletePilot } from '../../api/pilots';

/** Delete Pilot: the spec's confirmation, Cancel and Delete Pilot ('Deleting...' while it runs). */
export function DeletePilotDialog({ pilot, onClose }: { pilot: AdminPilot; onClose: () => void }) {
  const remove = useDeletePilot();
  const name = `${pilot.firstName} ${pilot.lastName}`;
  const confirm = () =>
    remove.mutate(pilot.id, {
      onSuccess: () => {
        toast.success('Pilot Deleted', 'The pilot has been successfully deleted.');
        onClose();
      },
    });
  return (
    <AppModal
      title="Delete Pilot"
      onCancel={onClose}
      cancelText="Cancel"
      extra={
        <Button type="primary" danger loading={remove.isPending} disabled={!pilot.id} onClick={confirm}>
          {remove.isPending ? 'Deleting...' : 'Delete Pilot'}
        </Button>
      }
    >
      <p>Are you sure you want to delete {name}? This action cannot be undone and will remove all associated data.</p>
    </AppModal>
  );
}
