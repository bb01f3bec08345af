import type { GetProps } from 'antd';
// Password alone, not the 'antd' Input with TextArea, Search and OTP: it is on the login screen.
import Password from 'antd/es/input/Password';
import { Field } from './fields';

type PasswordProps = GetProps<typeof Password>;

/** Every password field of the app: its eye is a named Show/Hide control (screen readers say what it does). */
export function PasswordInput(props: PasswordProps) {
  return <Password {...props} iconRender={(visible) => <ShowHide visible={visible} />} />;
}

function ShowHide({ visible }: { visible: boolean }) {
  return (
    <span role="button" aria-label={visible ? 'Hide password' : 'Show password'} className="show-hide">
      {visible ? 'Hide' : 'Show'}
    </span>
  );
}

export interface PasswordField {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
}

/** Labelled password fields one under another (Change Password, the forced password change). */
export function PasswordFields({ fields }: { fields: PasswordField[] }) {
  return fields.map((field) => (
    <Field key={field.id} id={field.id} label={field.label}>
      <PasswordInput
        id={field.id}
        autoComplete={field.autoComplete}
        value={field.value}
        onChange={(event) => field.onChange(event.target.value)}
      />
    </Field>
  ));
}
