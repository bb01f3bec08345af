import { Form } from 'antd';
import type { Admin } from '@crewswap/proto';
import { AppModal, okAction } from '../../../../shared/AppModal';
import { PasswordInput } from '../../../../shared/PasswordInput';
import { toast } from '../../../../shared/toast';
import { useSetAdminPassword } from '../../api/admins';
import { PASSWORD_MISMATCH, PASSWORD_TOO_SHORT } from './adminRules';

interface Values {
  password: string;
  confirmPassword: string;
}

/** An initial password for an admin who has never logged in. */
export function SetPasswordDialog({ admin, onClose }: { admin: Admin; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const setPassword = useSetAdminPassword();
  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setPassword.mutate(
      { id: admin.id, body: values },
      { onSuccess: () => (toast.success('Password Set', `${admin.name} can now sign in.`), onClose()) },
    );
  };
  return (
    <AppModal title={`Set Initial Password: ${admin.name}`} onCancel={onClose} {...okAction('Set Password', () => void save(), setPassword)}>
      <Form form={form} layout="vertical">
        <Form.Item label="Password" name="password" rules={[{ required: true, message: PASSWORD_TOO_SHORT }, { min: 6, message: PASSWORD_TOO_SHORT }]}>
          <PasswordInput autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Confirm Password"
          name="confirmPassword"
          dependencies={['password']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                (value ?? '') === (getFieldValue('password') ?? '') ? Promise.resolve() : Promise.reject(new Error(PASSWORD_MISMATCH)),
            }),
          ]}
        >
          <PasswordInput autoComplete="new-password" />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
