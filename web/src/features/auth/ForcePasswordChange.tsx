import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '@crewswap/proto/browser';
import type { Pilot } from '@crewswap/proto';
import { authApi } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { toast } from '../../shared/toast';
import { ShowHide } from './LoginForm';

/** Shown after a login the server flags: the pilot must choose a new password first. */
export default function ForcePasswordChange({ pilot, onDone }: { pilot: Pilot; onDone: (pilot: Pilot) => void }) {
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (newPassword === '' || confirmPassword === '') return toast.error('All Fields Required', 'Please fill in both password fields.');
    if (newPassword.length < MIN_PASSWORD_LENGTH)
      return toast.error('Password Too Short', 'Password must be at least 6 characters long.');
    if (newPassword !== confirmPassword) return toast.error("Passwords Don't Match", 'Passwords do not match.');
    setBusy(true);
    try {
      const answer = await authApi.forcePasswordChange(newPassword, confirmPassword);
      toast.success('Password Changed', 'Your password has been changed successfully.');
      onDone(answer?.pilot ?? pilot);
    } catch (error) {
      toast.error('Password Change Failed', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form layout="vertical" onFinish={submit} name="force-change">
      <h1 className="login-title">Change Password</h1>
      <p>Hello {pilot.firstName}, you must change your password before continuing.</p>
      <Form.Item label="New Password" htmlFor="force-new-password">
        <Input.Password
          id="force-new-password"
          value={newPassword}
          autoComplete="new-password"
          onChange={(event) => setNewPassword(event.target.value)}
          iconRender={(visible) => <ShowHide visible={visible} />}
        />
      </Form.Item>
      <Form.Item label="Confirm New Password" htmlFor="force-confirm-password">
        <Input.Password
          id="force-confirm-password"
          value={confirmPassword}
          autoComplete="new-password"
          onChange={(event) => setConfirmPassword(event.target.value)}
          iconRender={(visible) => <ShowHide visible={visible} />}
        />
      </Form.Item>
      <div className="form-actions">
        <Button type="primary" htmlType="submit" loading={busy}>
          Change Password
        </Button>
      </div>
    </Form>
  );
}
