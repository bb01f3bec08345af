import { Button, Card, Form, Input, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useProductName } from '../../api/auth';
import { toast } from '../../shared/toast';
import { useAdminLogin } from './api/session';

interface LoginValues {
  email?: string;
  password?: string;
}

/** /admin/login: 'Admin Portal', email, password and Sign In; on success the console at /admin. */
export function AdminLogin() {
  const product = useProductName();
  const login = useAdminLogin();
  const navigate = useNavigate();

  const submit = ({ email = '', password = '' }: LoginValues) => {
    if (email.trim() === '' || password === '') {
      toast.error('Error', 'Please enter both email and password');
      return;
    }
    login.mutate({ email: email.trim(), password }, { onSuccess: () => navigate('/admin', { replace: true }) });
  };

  return (
    <main className="admin-login">
      <Card className="admin-login-card">
        <Typography.Title level={2}>Admin Portal</Typography.Title>
        <Typography.Paragraph type="secondary">{product} administration</Typography.Paragraph>
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item label="Email" name="email">
            <Input type="email" autoComplete="username" />
          </Form.Item>
          <Form.Item label="Password" name="password">
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            Sign In
          </Button>
        </Form>
      </Card>
    </main>
  );
}
