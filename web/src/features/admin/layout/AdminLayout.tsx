import { LogoutOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { CurrentAdmin } from '@crewswap/proto';
import { useProductName } from '../../../api/auth';
import { useIsNarrow } from '../../../shared/useIsNarrow';
import { useAdminLogout } from '../api/session';
import { canOpen } from '../permissions';
import { RESOURCES } from '../resources';

const MENU = RESOURCES.filter((resource) => resource.menu);

/**
 * Desktop: a sidebar titled '{product} Admin Panel' with the menu, Logout and who is signed in.
 * Phone: a top bar with Logout and the menu as a two-column grid. Items the admin may not open
 * are shown disabled and dimmed.
 */
export function AdminLayout({ admin, children }: { admin: CurrentAdmin; children: ReactNode }) {
  const narrow = useIsNarrow();
  const product = useProductName();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const logout = useAdminLogout();
  const selected = pathname.split('/')[2] ?? '';
  const title = `${product} Admin Panel`;
  const logoutButton = (
    <Button icon={<LogoutOutlined />} onClick={() => logout.mutate()} loading={logout.isPending}>
      Logout
    </Button>
  );

  // One tree for both widths: only the menu part changes, so the open panel (and its dialog,
  // with whatever was typed) survives a resize or a rotation across the phone breakpoint.
  const menu = narrow ? (
    <>
      <header className="admin-topbar">
        <Typography.Title level={1} className="admin-topbar-title">
          {title}
        </Typography.Title>
        {logoutButton}
      </header>
      <nav aria-label="Admin menu" className="admin-menu-grid">
        {MENU.map((resource) => {
          const allowed = canOpen(admin, resource);
          return (
            <Button
              key={resource.name}
              icon={resource.icon}
              disabled={!allowed}
              className={allowed ? undefined : 'admin-menu-dimmed'}
              type={selected === resource.name ? 'primary' : 'default'}
              onClick={() => navigate(`/admin/${resource.name}`)}
            >
              {resource.label}
            </Button>
          );
        })}
      </nav>
      <Typography.Text type="secondary" className="admin-signed-in-narrow">
        Logged in as {admin.name} ({admin.email})
      </Typography.Text>
    </>
  ) : (
    <Layout.Sider width={260} theme="light" className="admin-sider">
      <Typography.Title level={1} className="admin-sider-title">
        {title}
      </Typography.Title>
      <Menu
        mode="inline"
        aria-label="Admin menu"
        selectedKeys={[selected]}
        onClick={({ key }) => navigate(`/admin/${key}`)}
        items={MENU.map((resource) => {
          const allowed = canOpen(admin, resource);
          return {
            key: resource.name,
            icon: resource.icon,
            label: resource.label,
            disabled: !allowed,
            className: allowed ? undefined : 'admin-menu-dimmed',
          };
        })}
      />
      <div className="admin-sider-footer">
        <Typography.Text type="secondary">Logged in as</Typography.Text>
        <Typography.Text strong>{admin.name}</Typography.Text>
        <Typography.Text type="secondary" className="admin-sider-email">
          {admin.email}
        </Typography.Text>
        {logoutButton}
      </div>
    </Layout.Sider>
  );

  return (
    <Layout className={narrow ? 'admin-shell admin-shell-narrow' : 'admin-shell'} hasSider={!narrow}>
      {menu}
      <Layout.Content className="admin-content">{children}</Layout.Content>
    </Layout>
  );
}
