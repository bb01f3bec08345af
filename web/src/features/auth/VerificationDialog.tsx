import { Button, Input } from 'antd';
import { useState } from 'react';
import { shapeVerificationCode, VERIFICATION_CODE_MIN } from '@crewswap/proto/browser';
import type { LoginResponse } from '@crewswap/proto';
import { authApi } from '../../api/auth';
import { ApiError, errorMessage } from '../../api/client';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import type { PendingVerification } from './LoginPage';

interface Props {
  pending: PendingVerification;
  onClose: () => void;
  onVerified: (answer: Partial<LoginResponse> | undefined) => Promise<void> | void;
}

/** 'VS Pilot Verification': the code from the verification email (or the daily access code). */
export default function VerificationDialog({ pending, onClose, onVerified }: Props) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const verify = async () => {
    if (code.length < VERIFICATION_CODE_MIN) {
      toast.error('Invalid Code', 'Please enter the verification code from your email');
      return;
    }
    setBusy(true);
    try {
      const answer = await authApi.verifyEmail(pending.email, code);
      toast.success('Email Verified', 'Your email address has been verified.');
      await onVerified(answer);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) toast.error('Too Many Attempts', error.message);
      else toast.error('Verification Failed', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    try {
      await authApi.resendVerification(pending.email);
      toast.success('Code Sent', 'A new verification code has been sent to your email.');
    } catch (error) {
      toast.error('Error', errorMessage(error));
    }
  };

  return (
    <AppModal
      open
      title="VS Pilot Verification"
      onCancel={onClose}
      footer={[
        <Button key="resend" onClick={resend}>
          Resend Code
        </Button>,
        <Button key="verify" type="primary" loading={busy} onClick={verify}>
          Verify
        </Button>,
      ]}
    >
      <div className="stack">
        <p>
          We sent a verification code to <strong>{pending.email}</strong>. Enter it below to confirm you are a VS pilot.
        </p>
        <label className="field-label" htmlFor="verification-code">
          Verification Code
        </label>
        <Input
          id="verification-code"
          value={code}
          autoComplete="one-time-code"
          onChange={(event) => setCode(shapeVerificationCode(event.target.value))}
          onPressEnter={verify}
          maxLength={20}
        />
      </div>
    </AppModal>
  );
}
