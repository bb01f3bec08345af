import { Button, Input } from 'antd';
import { useState } from 'react';
import type { LoginFailure, LoginResponse } from '@crewswap/proto';
import { authApi, loginEmail } from '../../api/auth';
import { ApiError } from '../../api/client';
import { toast } from '../../shared/toast';
import { useConfirm } from '../../shared/useConfirm';
import { describeLoginFailure } from './loginErrors';
import type { PendingVerification } from './LoginPage';

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
  const [busy, setBusy] = useState(false);
  const confirm = useConfirm();

  const login = async () => {
    const email = loginEmail(prefix.trim(), domain);
    setBusy(true);
    try {
      onLoggedIn(await authApi.login(email, password));
    } catch (error) {
      const failure = error instanceof ApiError ? (error.body as Partial<LoginFailure>) : undefined;
      const described = describeLoginFailure(typeof failure === 'object' ? failure : undefined);
      toast[described.kind](described.title, described.description, { sticky: described.sticky });
      if (described.openVerification) onVerificationRequired({ email, password });
    } finally {
      setBusy(false);
    }
  };

  const forgotPassword = async () => {
    if (prefix.trim() === '') {
      toast.error('Email Required', 'Please enter your email address first.');
      return;
    }
    const ok = await confirm({ title: 'Password Reset Confirmation', content: PASSWORD_RESET_CONFIRMATION });
    if (!ok) return;
    try {
      await authApi.forgotPassword(loginEmail(prefix.trim(), domain));
      toast.info('Password Reset', 'Please check your registered email address.');
    } catch (error) {
      toast.error('Password Reset Failed', error instanceof Error ? error.message : undefined);
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void login();
      }}
    >
      <div className="field">
        <label className="field-label" htmlFor="login-email">
          Email
        </label>
        <Input
          id="login-email"
          value={prefix}
          autoComplete="username"
          autoCapitalize="none"
          inputMode="email"
          placeholder="firstname.lastname"
          suffix={<span className="email-suffix">{domain ? `@${domain}` : '@'}</span>}
          onChange={(event) => onPrefixChange(event.target.value.replace(/\s/g, ''))}
          onBlur={() => onPrefixChange(prefix.trim())}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="login-password">
          Password
        </label>
        <Input.Password
          id="login-password"
          value={password}
          autoComplete="current-password"
          onChange={(event) => setPassword(event.target.value)}
          iconRender={(visible) => <ShowHide visible={visible} />}
        />
      </div>
      <div className="form-actions">
        <Button type="link" onClick={forgotPassword}>
          Forgot Password
        </Button>
        <Button type="primary" htmlType="submit" loading={busy}>
          Login
        </Button>
      </div>
    </form>
  );
}

/** The password eye as a named control (screen readers say what it does). */
export function ShowHide({ visible }: { visible: boolean }) {
  return (
    <span role="button" aria-label={visible ? 'Hide password' : 'Show password'} className="show-hide">
      {visible ? 'Hide' : 'Show'}
    </span>
  );
}
