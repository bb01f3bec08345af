import { Button, Input } from 'antd';
import { useEffect, useState } from 'react';
import { shapeVerificationCode, VERIFICATION_CODE_MIN } from '@crewswap/proto/browser';
import type { LoginResponse } from '@crewswap/proto';
import { resendWait, useResendVerification, useVerifyEmail, type PendingVerification } from '../../api/auth';
import { AppModal, okAction } from '../../shared/AppModal';
import { toast } from '../../shared/toast';

interface Props {
  pending: PendingVerification;
  onClose: () => void;
  /** With the session when the pilot is now logged in, null when they still have to log in. */
  onVerified: (loggedIn: LoginResponse | null) => void;
}

/** 'VS Pilot Verification': the code from the verification email (or the daily access code). */
export default function VerificationDialog({ pending, onClose, onVerified }: Props) {
  const [code, setCode] = useState('');
  const verifyEmail = useVerifyEmail();
  const resendVerification = useResendVerification();
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

  const verify = () => {
    if (code.length < VERIFICATION_CODE_MIN) {
      toast.error('Invalid Code', 'Please enter the verification code from your email');
      return;
    }
    verifyEmail.mutate(
      { ...pending, code },
      {
        onSuccess: (loggedIn) => {
          toast.success('Email Verified', 'Your email address has been verified.');
          onVerified(loggedIn);
        },
      },
    );
  };

  const resend = () =>
    resendVerification.mutate(pending.email, {
      onSuccess: () => toast.success('Code Sent', 'A new verification code has been sent to your email.'),
      onError: (error) => {
        const wait = resendWait(error);
        if (wait === undefined) return;
        const current = Date.now();
        setNow(current);
        setResendAt(current + wait * 1000);
      },
    });

  const resendButton = (
    <Button onClick={resend} disabled={resendIn > 0}>
      {resendIn > 0 ? `Resend Code (${resendIn}s)` : 'Resend Code'}
    </Button>
  );
  return (
    <AppModal title="VS Pilot Verification" onCancel={onClose} {...okAction('Verify', verify, verifyEmail)} secondary={resendButton}>
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
        {resendIn > 0 && <p role="status">A new code can be sent in {resendIn} seconds.</p>}
      </div>
    </AppModal>
  );
}
