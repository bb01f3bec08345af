import { Alert, Form, Input, Switch } from 'antd';
import { useState } from 'react';
import { shapePhone } from '@crewswap/proto/browser';
import type { AdminPilot } from '@crewswap/proto';
import { AppModal, okAction } from '../../../../shared/AppModal';
import { ShapedInput } from '../../../../shared/fields';
import { RoleInfoDialog, type RoleInfo } from '../../../../shared/infoTexts';
import { PilotRoleFields } from '../../../../shared/PilotRoleFields';
import { SearchDayRangeItem } from '../../../../shared/SearchDayRangeItem';
import { toast } from '../../../../shared/toast';
import { useUpdatePilot } from '../../api/pilots';
import { checkPilotForm, pilotFormValues, type PilotFormValues } from './pilotForm';

/** Edit Pilot: identity, contact, role and flags; the server clears the change-tracking dates it must. */
export function EditPilotDialog({ pilot, onClose }: { pilot: AdminPilot; onClose: () => void }) {
  const [form] = Form.useForm<PilotFormValues>();
  const rank = Form.useWatch('rank', form);
  const update = useUpdatePilot();
  const [problem, setProblem] = useState<string | null>(null);
  const [info, setInfo] = useState<RoleInfo | null>(null);

  const save = () => {
    const checked = checkPilotForm({ ...pilotFormValues(pilot), ...form.getFieldsValue(true) });
    if ('error' in checked) {
      setProblem(checked.error);
      return;
    }
    setProblem(null);
    update.mutate(
      { id: pilot.id, body: checked.body },
      {
        onSuccess: () => {
          toast.success('Pilot Updated', `${checked.body.firstName} ${checked.body.lastName} has been updated.`);
          onClose();
        },
      },
    );
  };

  return (
    <AppModal title={`Edit Pilot: ${pilot.firstName} ${pilot.lastName}`} width={640} onCancel={onClose} {...okAction('Save Changes', save, update)}>
      <Form form={form} layout="vertical" initialValues={pilotFormValues(pilot)} requiredMark>
        {problem && <Alert type="error" title={problem} showIcon className="admin-form-alert" role="alert" />}
        <div className="form-grid">
          <Form.Item label="First Name" name="firstName" required>
            <Input />
          </Form.Item>
          <Form.Item label="Last Name" name="lastName" required>
            <Input />
          </Form.Item>
          <Form.Item label="Employee ID" name="employeeId" required>
            <Input />
          </Form.Item>
          <Form.Item label="Phone" name="phone" required>
            <ShapedInput shape={shapePhone} inputMode="tel" />
          </Form.Item>
        </div>
        <Form.Item label="Email" name="email" required>
          <Input type="email" />
        </Form.Item>
        <PilotRoleFields rank={rank} onLtcInfo={() => setInfo('ltc')} />
        <SearchDayRangeItem />
        <div className="admin-switches">
          <Form.Item label="Master Roster" name="usualReq" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="All Visible" name="allVisible" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="Test Data" name="testData" valuePropName="checked">
            <Switch />
          </Form.Item>
        </div>
      </Form>
      <RoleInfoDialog info={info} onClose={() => setInfo(null)} />
    </AppModal>
  );
}
