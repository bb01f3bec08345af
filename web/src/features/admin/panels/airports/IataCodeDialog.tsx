import { Form, Input } from 'antd';
import type { IataCode } from '@crewswap/proto';
import { AppModal, okAction } from '../../../../shared/AppModal';
import { ShapedInput } from '../../../../shared/fields';
import { toast } from '../../../../shared/toast';
import { useCreateIataCode, useUpdateIataCode } from '../../api/airports';
import { IATA_RULES, upper } from './iataForm';

interface Values {
  iataCode: string;
  icaoCode: string;
  continent: string;
  isoCountry: string;
  municipality: string;
}

/** Add or edit one IATA code; codes are uppercased as typed and checked with the spec's messages. */
export function IataCodeDialog({ code, onClose }: { code: IataCode | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const create = useCreateIataCode();
  const update = useUpdateIataCode();
  const mutation = code ? update : create;

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const body = {
      iataCode: values.iataCode,
      icaoCode: values.icaoCode || null,
      continent: values.continent || null,
      isoCountry: values.isoCountry || null,
      municipality: values.municipality?.trim() || null,
    };
    const done = () => {
      toast.success(code ? 'IATA Code Updated' : 'IATA Code Added', `${body.iataCode} has been saved.`);
      onClose();
    };
    if (code) update.mutate({ id: code.id, body }, { onSuccess: done });
    else create.mutate(body, { onSuccess: done });
  };

  return (
    <AppModal title={code ? `Edit ${code.iataCode}` : 'Add IATA Code'} onCancel={onClose} {...okAction(code ? 'Save' : 'Add', () => void save(), mutation)}>
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          iataCode: code?.iataCode ?? '',
          icaoCode: code?.icaoCode ?? '',
          continent: code?.continent ?? '',
          isoCountry: code?.isoCountry ?? '',
          municipality: code?.municipality ?? '',
        }}
      >
        <div className="form-grid">
          <Form.Item label="IATA Code" name="iataCode" rules={IATA_RULES.iataCode}>
            <ShapedInput shape={upper} maxLength={3} />
          </Form.Item>
          <Form.Item label="ICAO Code" name="icaoCode" rules={IATA_RULES.icaoCode}>
            <ShapedInput shape={upper} maxLength={4} />
          </Form.Item>
          <Form.Item label="Continent" name="continent" rules={IATA_RULES.continent}>
            <ShapedInput shape={upper} maxLength={2} />
          </Form.Item>
          <Form.Item label="Country Code" name="isoCountry" rules={IATA_RULES.isoCountry}>
            <ShapedInput shape={upper} maxLength={2} />
          </Form.Item>
        </div>
        <Form.Item label="City" name="municipality">
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
