import { Button } from 'antd';
import type { DeletedPilotLookup } from '@crewswap/proto';
import { useRestorePilot } from '../../api/auth';
import { AppModal, okAction } from '../../shared/AppModal';
import { Details } from '../../shared/Details';
import { toast } from '../../shared/toast';
import type { RegistrationValues } from './registration';

/** A deleted account with this employee ID, and what the pilot typed to restore it. */
export interface DeletedAccount {
  pilot: NonNullable<DeletedPilotLookup['pilot']>;
  values: RegistrationValues;
}

interface Props {
  account: DeletedAccount;
  onClose: () => void;
  onCancelRegistration: () => void;
  /** With the email prefix to log in with. */
  onRestored: (emailPrefix: string) => void;
}

/** 'Account Previously Deleted': restore it with the new password, or give up the registration. */
export function RestoreAccountDialog({ account: { pilot, values }, onClose, onCancelRegistration, onRestored }: Props) {
  const restorePilot = useRestorePilot();

  const restore = () => {
    const updatedData = { password: values.password, emailVerified: false as const };
    restorePilot.mutate(
      { employeeId: values.employeeId, updatedData },
      {
        onSuccess: () => {
          toast.success('Account Restored', 'Your previous account has been restored. Please log in with your new password.');
          onRestored(pilot.email.split('@')[0] ?? values.emailPrefix);
        },
      },
    );
  };

  return (
    <AppModal
      title="Account Previously Deleted"
      onCancel={onClose}
      {...okAction('Restore Previous Account', restore, restorePilot)}
      secondary={<Button onClick={onCancelRegistration}>Cancel Registration</Button>}
    >
      <div className="stack">
        <p>
          An account with employee ID {pilot.employeeId} was deleted. Its details are kept for {pilot.daysRemaining} more
          days, and the ID cannot be registered again until then.
        </p>
        <Details
          rows={[
            ['Name', `${pilot.firstName} ${pilot.lastName}`],
            ['Rank / Fleet', `${pilot.rank} ${pilot.fleet}`],
            ['Email', pilot.email],
          ]}
        />
        <p>
          Restoring keeps the original rank, fleet and change restrictions; only the password changes to the one you
          entered. You will verify your email again.
        </p>
      </div>
    </AppModal>
  );
}
