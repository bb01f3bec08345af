import { Button, Input } from 'antd';
import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '@crewswap/proto/browser';
import { errorMessage } from '../../api/client';
import { pilotsApi } from '../../api/pilots';
import { AppModal } from '../../shared/AppModal';
import { ShowHide } from '../auth/LoginForm';
import { toast } from '../../shared/toast';

export default function ChangePasswordDialog({ pilotId, onClose }: { pilotId: string; onClose: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (current === '' || next === '' || again === '') return toast.error('All Fields Required', 'Please fill in all password fields.');
    if (next.length < MIN_PASSWORD_LENGTH) return toast.error('Password Too Short', 'Password must be at least 6 characters long.');
    if (next !== again) return toast.error('Password Mismatch', 'New password and confirmation do not match.');
    setBusy(true);
    try {
      await pilotsApi.changePassword(pilotId, { currentPassword: current, newPassword: next });
      toast.success('Password Changed', 'Your password has been changed successfully.');
      onClose();
    } catch (error) {
      toast.error('Password Change Failed', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppModal
      open
      title="Change Password"
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="save" type="primary" loading={busy} onClick={submit}>
          Change Password
        </Button>,
      ]}
    >
      {[
        { id: 'current-password', label: 'Current Password', value: current, set: setCurrent, autoComplete: 'current-password' },
        { id: 'new-password', label: 'New Password', value: next, set: setNext, autoComplete: 'new-password' },
        { id: 'confirm-new-password', label: 'Confirm New Password', value: again, set: setAgain, autoComplete: 'new-password' },
      ].map((field) => (
        <div className="field" key={field.id}>
          <label className="field-label" htmlFor={field.id}>
            {field.label}
          </label>
          <Input.Password
            id={field.id}
            autoComplete={field.autoComplete}
            value={field.value}
            onChange={(event) => field.set(event.target.value)}
            iconRender={(visible) => <ShowHide visible={visible} />}
          />
        </div>
      ))}
    </AppModal>
  );
}
