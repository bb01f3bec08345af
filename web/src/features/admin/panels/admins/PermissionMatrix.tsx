import { Checkbox, Table, Tag } from 'antd';
import { PERMISSIONS } from '@crewswap/proto/browser';
import type { Admin, CurrentAdmin, Permission } from '@crewswap/proto';
import { toast } from '../../../../shared/toast';
import { useUpdateAdmin } from '../../api/admins';
import { canEditAdmin, PERMISSION_LABELS } from './adminRules';

/** Every admin against every permission; a tick saves at once. Master admins hold them all. */
export function PermissionMatrix({ me, admins }: { me: CurrentAdmin; admins: Admin[] }) {
  const update = useUpdateAdmin();
  const toggle = (admin: Admin, permission: Permission, on: boolean) => {
    const permissions = on ? [...admin.permissions, permission] : admin.permissions.filter((p) => p !== permission);
    update.mutate(
      {
        id: admin.id,
        body: { name: admin.name, email: admin.email, phone: admin.phone, jobTitle: admin.jobTitle, isMasterAdmin: admin.isMasterAdmin, permissions },
      },
      { onSuccess: () => toast.success('Admin Updated', `${admin.name}'s permissions have been saved.`) },
    );
  };
  return (
    <Table<Admin>
      rowKey="id"
      dataSource={admins}
      pagination={false}
      size="small"
      scroll={{ x: 'max-content' }}
      columns={[
        { title: 'Admin', dataIndex: 'name', fixed: 'left', render: (name: string, a) => (a.isMasterAdmin ? <>{name} <Tag color="gold">Master</Tag></> : name) },
        ...PERMISSIONS.map((permission) => ({
          title: PERMISSION_LABELS[permission],
          key: permission,
          align: 'center' as const,
          render: (_: unknown, a: Admin) => (
            <Checkbox
              aria-label={`${a.name}: ${PERMISSION_LABELS[permission]}`}
              checked={a.isMasterAdmin || a.permissions.includes(permission)}
              disabled={a.isMasterAdmin || !canEditAdmin(me, a) || update.isPending}
              onChange={(e) => toggle(a, permission, e.target.checked)}
            />
          ),
        })),
      ]}
    />
  );
}
