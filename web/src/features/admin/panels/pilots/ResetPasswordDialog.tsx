import { Alert, Form } from 'antd';
import { useState } from 'react';
import type { AdminPilot } from '@crewswap/proto';
import { AppModal, okAction } from '../../../../shared/AppModal';
import { PasswordInput } from '../../../../shared/PasswordInput';
import { toast } from '../../../../shared/toast';
import { useResetPilotPassword } from '../../api/pilots';

/** The temporary password stays on screen this long (spec: 10 seconds). */
export const TEMPORARY_PASSWORD_SECONDS = 10;

/** The spec's three checks of the admin's pilot password reset, in its words; null when both fields pass. */
export function checkPilotPassword(password: string, confirm: string): string | null {
  if (password === '' || confirm === '') return 'Please fill in both password fields.';
  if (password !== confirm) return 'The passwords do not match. Please try again.';
  if (password.length < 6) return 'Password must be at least 6 characters long.';
  return null;
}

export function ResetPasswordDialog({ pilot, onClose }: { pilot: AdminPilot; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reset = useResetPilotPassword();

  const save = () => {
    const error = checkPilotPassword(password, confirm);
    setProblem(error);
    if (error) return;
    reset.mutate(
      { id: pilot.id, body: { password, confirmPassword: confirm } },
      {
        onSuccess: ({ temporaryPassword }) => {
          toast.success(
            'Password Reset Successfully',
            `Temporary password: ${temporaryPassword}. ${pilot.firstName} ${pilot.lastName} will be prompted to change it at the next login.`,
            { duration: TEMPORARY_PASSWORD_SECONDS },
          );
          onClose();
        },
      },
    );
  };

  return (
    <AppModal title={`Reset Password: ${pilot.firstName} ${pilot.lastName}`} onCancel={onClose} {...okAction('Reset Password', save, reset)}>
      <Form layout="vertical" component="div">
        {problem && <Alert type="error" title={problem} showIcon className="admin-form-alert" role="alert" />}
        <Form.Item label="New Password" htmlFor="pilot-new-password">
          <PasswordInput id="pilot-new-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Form.Item>
        <Form.Item label="Confirm Password" htmlFor="pilot-confirm-password">
          <PasswordInput id="pilot-confirm-password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
