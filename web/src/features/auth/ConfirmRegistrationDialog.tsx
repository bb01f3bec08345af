import { loginEmail, useRegister, type Registered } from '../../api/auth';
import { AppModal, okAction } from '../../shared/AppModal';
import { Details } from '../../shared/Details';
import type { RegistrationValues } from './registration';

interface Props {
  values: RegistrationValues;
  domain: string | undefined;
  onClose: () => void;
  onRegistered: (registered: Registered) => void;
}

/** 'Confirm your ID and Email': Confirm sends the registration. */
export function ConfirmRegistrationDialog({ values, domain, onClose, onRegistered }: Props) {
  const registerCall = useRegister();

  const register = () => {
    const isCaptain = values.rank === 'CP';
    const body = { ...values, apic: isCaptain ? true : values.apic, ltc: isCaptain ? values.ltc : false };
    registerCall.mutate({ body, domain }, { onSuccess: onRegistered, onSettled: onClose });
  };

  return (
    <AppModal title="Confirm your ID and Email" onCancel={onClose} {...okAction('Confirm', register, registerCall)} cancelText="Back">
      <div className="stack">
        <p>Please check these are correct. Your verification code and any password reset are sent to this email address.</p>
        <Details
          rows={[
            ['Employee ID', values.employeeId],
            ['Email', loginEmail(values.emailPrefix, domain)],
          ]}
        />
      </div>
    </AppModal>
  );
}
