import { Alert, Table } from 'antd';
import type { Admin } from '@crewswap/proto';
import { formatDateTime } from '../../format';

/**
 * What the console knows of admin activity today: each admin's last sign-in, newest first. (The
 * admin service has no activity-log route yet; when it lands, its entries belong here.)
 */
export function ActivityLog({ admins }: { admins: Admin[] }) {
  const rows = [...admins].sort((a, b) => (b.lastLoginAt ?? '').localeCompare(a.lastLoginAt ?? ''));
  return (
    <>
      <Alert type="info" showIcon title="Last sign-in of every administrator" className="admin-form-alert" />
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
