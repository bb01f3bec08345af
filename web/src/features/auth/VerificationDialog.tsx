import { Button, Input } from 'antd';
import { useEffect, useState } from 'react';
import { shapeVerificationCode, VERIFICATION_CODE_MIN } from '@crewswap/proto/browser';
import type { LoginResponse, ResendVerificationWait } from '@crewswap/proto';
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
/** The seconds a refused resend must wait (429), or undefined for any other failure. */
function resendWait(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 429) return undefined;
  const seconds = (error.body as Partial<ResendVerificationWait> | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
}

export default function VerificationDialog({ pending, onClose, onVerified }: Props) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  // When the server will send another code; Resend stays off until then. A deadline rather than
  // a count of ticks, since a phone pauses timers while the app is in the background.
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const resendIn = Math.max(0, Math.ceil((resendAt - now) / 1000));

  useEffect(() => {
    if (resendAt === 0) return undefined;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= resendAt) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [resendAt]);

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
      const wait = resendWait(error);
      if (wait === undefined) {
        toast.error('Error', errorMessage(error));
        return;
      }
      const current = Date.now();
      setNow(current);
      setResendAt(current + wait * 1000);
      toast.error(error instanceof ApiError && error.title ? error.title : 'Please Wait', errorMessage(error));
    }
  };

  return (
    <AppModal
      open
      title="VS Pilot Verification"
      onCancel={onClose}
      footer={[
        <Button key="resend" onClick={resend} disabled={resendIn > 0}>
          {resendIn > 0 ? `Resend Code (${resendIn}s)` : 'Resend Code'}
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
        {resendIn > 0 && (
          <p role="status">
            A new code can be sent in {resendIn} seconds.
          </p>
        )}
      </div>
    </AppModal>
  );
}
