import { Button } from 'antd';
// Input alone: the 'antd' Input carries TextArea, Search and OTP into the first screen's code.
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import type { LoginResponse } from '@crewswap/proto';
import { loginEmail, needsVerification, useForgotPassword, useLogin, type PendingVerification } from '../../api/auth';
import { Field } from '../../shared/fields';
import { PasswordInput } from '../../shared/PasswordInput';
import { toast } from '../../shared/toast';
import { useConfirm } from '../../shared/useConfirm';
import { EmailDomain } from './EmailDomain';

export const PASSWORD_RESET_CONFIRMATION =
  'If you are registered, a new password will be sent to your registered email address. You can log in with it and will then be prompted to change it.';

interface Props {
  domain: string | undefined;
  prefix: string;
  onPrefixChange: (prefix: string) => void;
  onLoggedIn: (answer: LoginResponse) => void;
  onVerificationRequired: (pending: PendingVerification) => void;
}

export function LoginForm({ domain, prefix, onPrefixChange, onLoggedIn, onVerificationRequired }: Props) {
  const [password, setPassword] = useState('');
  const confirm = useConfirm();
  const loginCall = useLogin();
  const forgotPasswordCall = useForgotPassword();

  const login = () => {
    const credentials = { email: loginEmail(prefix.trim(), domain), password };
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
    forgotPasswordCall.mutate(loginEmail(prefix.trim(), domain), {
      onSuccess: () => toast.info('Password Reset', 'Please check your registered email address.'),
    });
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        login();
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
        <Button type="primary" htmlType="submit" loading={loginCall.isPending}>
          Login
        </Button>
      </div>
    </form>
  );
}
