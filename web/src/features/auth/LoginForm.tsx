import { Button } from 'antd';
// Input alone: the 'antd' Input carries TextArea, Search and OTP into the first screen's code.
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import type { LoginResponse } from '@crewswap/proto';
import { needsVerification, useCompanyEmail, useForgotPassword, useLogin, type PendingVerification } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { Field } from '../../shared/fields';
import { PasswordInput } from '../../shared/PasswordInput';
import { toast } from '../../shared/toast';
import { useConfirm } from '../../shared/useConfirm';
import { EmailDomain } from './EmailDomain';

export const PASSWORD_RESET_CONFIRMATION =
  'If you are registered, a new password will be sent to your registered email address. You can log in with it and will then be prompted to change it.';

interface Props {
  prefix: string;
  onPrefixChange: (prefix: string) => void;
  onLoggedIn: (answer: LoginResponse) => void;
  onVerificationRequired: (pending: PendingVerification) => void;
}

export function LoginForm({ prefix, onPrefixChange, onLoggedIn, onVerificationRequired }: Props) {
  const [password, setPassword] = useState('');
  const confirm = useConfirm();
  const loginCall = useLogin();
  const forgotPasswordCall = useForgotPassword();
  const companyEmail = useCompanyEmail();
  // Waiting for the company domain (auth's config not answered yet): the button spins already.
  const [preparing, setPreparing] = useState(false);

  const emailOrToast = async (failedTitle: string): Promise<string | undefined> => {
    setPreparing(true);
    try {
      return await companyEmail(prefix.trim());
    } catch (error) {
      toast.error(failedTitle, errorMessage(error));
      return undefined;
    } finally {
      setPreparing(false);
    }
  };

  const login = async () => {
    const email = await emailOrToast('Login Failed');
    if (email === undefined) return;
    const credentials = { email, password };
    loginCall.mutate(credentials, {
      onSuccess: onLoggedIn,
      onError: (error) => needsVerification(error) && onVerificationRequired(credentials),
    });
  };

  const forgotPassword = async () => {
    if (prefix.trim() === '') {
      toast.error('Email Required', 'Please enter your email address first.');
      return;
    }
    const ok = await confirm({ title: 'Password Reset Confirmation', content: PASSWORD_RESET_CONFIRMATION });
    if (!ok) return;
    const email = await emailOrToast('Password Reset Failed');
    if (email === undefined) return;
    forgotPasswordCall.mutate(email, {
      onSuccess: () => toast.info('Password Reset', 'Please check your registered email address.'),
    });
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!preparing && !loginCall.isPending) void login();
      }}
    >
      <Field id="login-email" label="Email">
        <Input
          id="login-email"
          value={prefix}
          autoComplete="username"
          autoCapitalize="none"
          inputMode="email"
          placeholder="firstname.lastname"
          suffix={<EmailDomain />}
          onChange={(event) => onPrefixChange(event.target.value.replace(/\s/g, ''))}
          onBlur={() => onPrefixChange(prefix.trim())}
        />
      </Field>
      <Field id="login-password" label="Password">
        <PasswordInput
          id="login-password"
          value={password}
          autoComplete="current-password"
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <div className="form-actions">
        <Button type="link" onClick={forgotPassword}>
          Forgot Password
        </Button>
        <Button type="primary" htmlType="submit" loading={preparing || loginCall.isPending}>
          Login
        </Button>
      </div>
    </form>
  );
}
