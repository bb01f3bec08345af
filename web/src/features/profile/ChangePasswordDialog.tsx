import { Button, Input } from 'antd';
import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '@crewswap/proto/browser';
import { errorMessage } from '../../api/client';
import { pilotsApi } from '../../api/pilots';
import { AppModal } from '../../shared/AppModal';
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
      <div className="stack">
        <label className="field-label" htmlFor="current-password">
          Current Password
        </label>
        <Input.Password id="current-password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <label className="field-label" htmlFor="new-password">
          New Password
        </label>
        <Input.Password id="new-password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        <label className="field-label" htmlFor="confirm-new-password">
          Confirm New Password
        </label>
        <Input.Password id="confirm-new-password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} />
      </div>
    </AppModal>
  );
}
