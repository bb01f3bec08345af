import { Checkbox, Form, Input } from 'antd';
import { PERMISSIONS } from '@crewswap/proto/browser';
import type { Admin, CurrentAdmin, Permission } from '@crewswap/proto';
import { toast } from '../../../../shared/toast';
import { useAddAdmin, useUpdateAdmin, type AdminForm } from '../../api/admins';
import { RecordDialog } from '../RecordDialog';
import { PERMISSION_LABELS } from './adminRules';

interface Values {
  name: string;
  email: string;
  phone: string;
  jobTitle: string;
  isMasterAdmin: boolean;
  permissions: Permission[];
}

/** Add or edit an admin: name and email required; permissions hidden once Master Admin is ticked. */
export function AdminDialog({ me, admin, onClose }: { me: CurrentAdmin; admin: Admin | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const master = Form.useWatch('isMasterAdmin', form);
  const add = useAddAdmin();
  const update = useUpdateAdmin();
  return (
    <RecordDialog
      record={admin}
      form={form}
      initialValues={{
        name: admin?.name ?? '',
        email: admin?.email ?? '',
        phone: admin?.phone ?? '',
        jobTitle: admin?.jobTitle ?? '',
        isMasterAdmin: admin?.isMasterAdmin ?? false,
        permissions: admin?.permissions ?? [],
      }}
      add={add}
      update={update}
      toBody={(values): AdminForm => ({
        name: values.name.trim(),
        email: values.email.trim(),
        phone: values.phone?.trim() || null,
        jobTitle: values.jobTitle?.trim() || null,
        isMasterAdmin: values.isMasterAdmin,
        permissions: values.isMasterAdmin ? [...PERMISSIONS] : (values.permissions ?? []),
      })}
      onSaved={(body) => toast.success(admin ? 'Admin Updated' : 'Admin Added', `${body.name} has been ${admin ? 'updated' : 'added'}.`)}
      onClose={onClose}
      title={admin ? `Edit Admin: ${admin.name}` : 'Add Admin'}
      okText={admin ? 'Save Changes' : 'Add Admin'}
      width={640}
    >
      <div className="form-grid">
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="Email"
          name="email"
          rules={[
            { required: true, whitespace: true, message: 'Email is required' },
            { type: 'email', message: 'Please enter a valid email address' },
          ]}
        >
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item label="Phone" name="phone">
          <Input inputMode="tel" />
        </Form.Item>
        <Form.Item label="Job Title" name="jobTitle">
          <Input />
        </Form.Item>
      </div>
      <Form.Item name="isMasterAdmin" valuePropName="checked">
        <Checkbox disabled={!me.isMasterAdmin}>Master Admin (full access)</Checkbox>
      </Form.Item>
      {!master && (
        <Form.Item label="Permissions" name="permissions">
          <Checkbox.Group className="admin-permission-list" options={PERMISSIONS.map((p) => ({ value: p, label: PERMISSION_LABELS[p] }))} />
        </Form.Item>
      )}
    </RecordDialog>
  );
}
