import { Button, Form } from 'antd';
import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '@crewswap/proto/browser';
import type { Pilot } from '@crewswap/proto';
import { useForcePasswordChange } from '../../api/auth';
import { PasswordFields } from '../../shared/PasswordInput';
import { toast } from '../../shared/toast';

/** Shown after a login the server flags: the pilot must choose a new password first. */
export default function ForcePasswordChange({ pilot, onDone }: { pilot: Pilot; onDone: (pilot: Pilot) => void }) {
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const changePassword = useForcePasswordChange();

  const submit = () => {
    if (newPassword === '' || confirmPassword === '') return toast.error('All Fields Required', 'Please fill in both password fields.');
    if (newPassword.length < MIN_PASSWORD_LENGTH)
      return toast.error('Password Too Short', 'Password must be at least 6 characters long.');
    if (newPassword !== confirmPassword) return toast.error("Passwords Don't Match", 'Passwords do not match.');
    changePassword.mutate(
      { newPassword, confirmPassword },
      {
        onSuccess: (answer) => {
          toast.success('Password Changed', 'Your password has been changed successfully.');
          onDone(answer?.pilot ?? pilot);
        },
      },
    );
  };

  return (
    <Form layout="vertical" onFinish={submit} name="force-change">
      <h1 className="login-title">Change Password</h1>
      <p>Hello {pilot.firstName}, you must change your password before continuing.</p>
      <PasswordFields
        fields={[
          { id: 'force-new-password', label: 'New Password', value: newPassword, onChange: setNewPassword, autoComplete: 'new-password' },
          {
            id: 'force-confirm-password',
            label: 'Confirm New Password',
            value: confirmPassword,
            onChange: setConfirmPassword,
            autoComplete: 'new-password',
          },
        ]}
      />
      <div className="form-actions">
        <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
          Change Password
        </Button>
      </div>
    </Form>
  );
}
