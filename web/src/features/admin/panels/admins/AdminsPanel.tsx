import { DeleteOutlined, EditOutlined, HistoryOutlined, KeyOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { Admin } from '@crewswap/proto';
import { AppModal } from '../../../../shared/AppModal';
import { toast } from '../../../../shared/toast';
import { useConfirm } from '../../../../shared/useConfirm';
import { useAdmins, useDeleteAdmin } from '../../api/admins';
import { emptyTextOf } from '../../layout/FailedLoad';
import { useCurrentAdmin } from '../../api/session';
import { formatDateTime } from '../../format';
import { useUrlState } from '../../useUrlState';
import { ActivityLog } from './ActivityLog';
import { AdminDialog } from './AdminDialog';
import { canAddAdmin, canDeleteAdmin, canEditAdmin, canSetPassword } from './adminRules';
import { PermissionMatrix } from './PermissionMatrix';
import { SetPasswordDialog } from './SetPasswordDialog';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'password'; admin: Admin } | null;

/** Administrator Management: the admins, who may do what to whom, and the two cards. */
export default function AdminsPanel() {
  const { data: me } = useCurrentAdmin();
  const loaded = useAdmins();
  const { data: admins, isLoading } = loaded;
  const remove = useDeleteAdmin();
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [view, setView] = useUrlState({ view: '' });
  if (!me) return null;

  const askDelete = async (admin: Admin) => {
    const yes = await confirm({
      title: 'Delete Admin',
      content: `Are you sure you want to delete ${admin.name}? They will no longer be able to sign in.`,
      okText: 'Delete',
      danger: true,
    });
    if (yes) remove.mutate(admin.id, { onSuccess: () => toast.success('Admin Deleted', `${admin.name} has been deleted.`) });
  };

  return (
    <div className="admin-panel">
      <div className="admin-cards admin-cards-links">
        <Card hoverable role="button" tabIndex={0} onClick={() => setView({ view: 'activity' })} onKeyDown={(e) => e.key === 'Enter' && setView({ view: 'activity' })}>
          <Card.Meta avatar={<HistoryOutlined />} title="Admin Activity Logs" description="Sign-ins of every administrator" />
        </Card>
        <Card hoverable role="button" tabIndex={0} onClick={() => setView({ view: 'permissions' })} onKeyDown={(e) => e.key === 'Enter' && setView({ view: 'permissions' })}>
          <Card.Meta avatar={<LockOutlined />} title="Permission Management" description="Who may open which panel" />
        </Card>
      </div>
      <div className="admin-filters">
        <Typography.Title level={4} className="admin-grow">
          Administrators
        </Typography.Title>
        {canAddAdmin(me) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add' })}>
            Add Admin
          </Button>
        )}
      </div>
      <Table<Admin>
        rowKey="id"
        loading={isLoading}
        dataSource={admins ?? []}
        locale={{ emptyText: emptyTextOf(loaded) }}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: 'Name', dataIndex: 'name', render: (name: string, a) => (a.jobTitle ? `${name} (${a.jobTitle})` : name) },
          { title: 'Email', dataIndex: 'email' },
          {
            title: 'Role',
            key: 'role',
            render: (_, a) => (a.isMasterAdmin ? <Tag color="gold">Master Admin</Tag> : <Tag>Admin</Tag>),
          },
          {
            title: 'Status',
            key: 'status',
            render: (_, a) => (a.lastLoginAt ? <Tag color="success">Active</Tag> : <Tag color="warning">Never logged in</Tag>),
          },
          { title: 'Last Login', dataIndex: 'lastLoginAt', render: (v: string | null) => (v ? formatDateTime(v) : 'Never') },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, a) => (
              <Space>
                {canEditAdmin(me, a) && <Button aria-label={`Edit ${a.name}`} icon={<EditOutlined />} onClick={() => setDialog({ kind: 'edit', admin: a })} />}
                {canSetPassword(me, a) && (
                  <Button aria-label={`Set password of ${a.name}`} icon={<KeyOutlined />} onClick={() => setDialog({ kind: 'password', admin: a })} />
                )}
                {canDeleteAdmin(me, a) && <Button aria-label={`Delete ${a.name}`} danger icon={<DeleteOutlined />} onClick={() => void askDelete(a)} />}
              </Space>
            ),
          },
        ]}
      />
      {dialog?.kind === 'add' && <AdminDialog me={me} admin={null} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <AdminDialog me={me} admin={dialog.admin} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'password' && <SetPasswordDialog admin={dialog.admin} onClose={() => setDialog(null)} />}
      {view.view === 'activity' && (
        <AppModal title="Admin Activity Logs" width={900} onCancel={() => setView({ view: '' })}>
          <ActivityLog me={me} admins={admins ?? []} />
        </AppModal>
      )}
      {view.view === 'permissions' && (
        <AppModal title="Permission Management" width={1100} onCancel={() => setView({ view: '' })}>
          <PermissionMatrix me={me} admins={admins ?? []} />
        </AppModal>
      )}
    </div>
  );
}
