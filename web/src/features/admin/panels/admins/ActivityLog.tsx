import { Alert, Table } from 'antd';
import type { Admin, AdminActivityEntry, CurrentAdmin } from '@crewswap/proto';
import { useAdminActivity } from '../../api/admins';
import { emptyTextOf } from '../../layout/FailedLoad';
import { formatDateTime } from '../../format';

/**
 * Master admins read the activity log (logins, failed logins, logouts, timeouts and changes);
 * other admins see each administrator's last sign-in, which the admins list already carries.
 */
export function ActivityLog({ me, admins }: { me: CurrentAdmin; admins: Admin[] }) {
  const activity = useAdminActivity(me.isMasterAdmin);
  if (me.isMasterAdmin) {
    return (
      <Table<AdminActivityEntry>
        rowKey="id"
        loading={activity.isLoading}
        dataSource={activity.data ?? []}
        pagination={{ pageSize: 20 }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: emptyTextOf(activity, 'No activity recorded yet') }}
        columns={[
          { title: 'When', dataIndex: 'at', render: (v: string) => formatDateTime(v) },
          { title: 'Admin', dataIndex: 'adminName', render: (v: string | null, row) => v ?? row.adminEmail ?? 'Unknown' },
          { title: 'Action', dataIndex: 'action' },
          { title: 'Detail', dataIndex: 'detail', render: (v: string | null) => v ?? '' },
          { title: 'IP', dataIndex: 'ipAddress', render: (v: string | null) => v ?? '' },
        ]}
      />
    );
  }
  const rows = [...admins].sort((a, b) => (b.lastLoginAt ?? '').localeCompare(a.lastLoginAt ?? ''));
  return (
    <>
      <Alert type="info" showIcon title="Last sign-in of every administrator (the full log is for master admins)" className="admin-form-alert" />
      <Table<Admin>
        rowKey="id"
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: 'Admin', dataIndex: 'name' },
          { title: 'Last Login', dataIndex: 'lastLoginAt', render: (v: string | null) => (v ? formatDateTime(v) : 'Never') },
          { title: 'Email', dataIndex: 'email' },
        ]}
      />
    </>
  );
}
