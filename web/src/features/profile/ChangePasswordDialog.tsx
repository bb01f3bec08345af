import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '@crewswap/proto/browser';
import { useChangePassword } from '../../api/pilots';
import { AppModal, okAction } from '../../shared/AppModal';
import { PasswordFields } from '../../shared/PasswordInput';
import { toast } from '../../shared/toast';

export default function ChangePasswordDialog({ pilotId, onClose }: { pilotId: string; onClose: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const changePassword = useChangePassword();

  const submit = () => {
    if (current === '' || next === '' || again === '') return toast.error('All Fields Required', 'Please fill in all password fields.');
    if (next.length < MIN_PASSWORD_LENGTH) return toast.error('Password Too Short', 'Password must be at least 6 characters long.');
    if (next !== again) return toast.error('Password Mismatch', 'New password and confirmation do not match.');
    changePassword.mutate(
      { id: pilotId, body: { currentPassword: current, newPassword: next } },
      {
        onSuccess: () => {
          toast.success('Password Changed', 'Your password has been changed successfully.');
          onClose();
        },
      },
    );
  };

  return (
    <AppModal title="Change Password" onCancel={onClose} {...okAction('Change Password', submit, changePassword)}>
      <PasswordFields
        fields={[
          { id: 'current-password', label: 'Current Password', value: current, onChange: setCurrent, autoComplete: 'current-password' },
          { id: 'new-password', label: 'New Password', value: next, onChange: setNext, autoComplete: 'new-password' },
          { id: 'confirm-new-password', label: 'Confirm New Password', value: again, onChange: setAgain, autoComplete: 'new-password' },
        ]}
      />
    </AppModal>
  );
}
