import { Form, Input } from 'antd';
import type { IataCode } from '@crewswap/proto';
import { ShapedInput } from '../../../../shared/fields';
import { toast } from '../../../../shared/toast';
import { useCreateIataCode, useUpdateIataCode } from '../../api/airports';
import { RecordDialog } from '../RecordDialog';
import { IATA_RULES, upper } from './iataForm';

interface Values {
  iataCode: string;
  icaoCode: string;
  continent: string;
  isoCountry: string;
  municipality: string;
}

/** The code fields, each uppercased as typed and as long as its code. */
const CODE_FIELDS = [
  { label: 'IATA Code', name: 'iataCode', maxLength: 3 },
  { label: 'ICAO Code', name: 'icaoCode', maxLength: 4 },
  { label: 'Continent', name: 'continent', maxLength: 2 },
  { label: 'Country Code', name: 'isoCountry', maxLength: 2 },
] as const;

/** Add or edit one IATA code; codes are uppercased as typed and checked with the spec's messages. */
export function IataCodeDialog({ code, onClose }: { code: IataCode | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const add = useCreateIataCode();
  const update = useUpdateIataCode();
  return (
    <RecordDialog
      record={code}
      form={form}
      initialValues={{
        iataCode: code?.iataCode ?? '',
        icaoCode: code?.icaoCode ?? '',
        continent: code?.continent ?? '',
        isoCountry: code?.isoCountry ?? '',
        municipality: code?.municipality ?? '',
      }}
      add={add}
      update={update}
      toBody={(values) => ({
        iataCode: values.iataCode,
        icaoCode: values.icaoCode || null,
        continent: values.continent || null,
        isoCountry: values.isoCountry || null,
        municipality: values.municipality?.trim() || null,
      })}
      onSaved={(body) => toast.success(code ? 'IATA Code Updated' : 'IATA Code Added', `${body.iataCode} has been saved.`)}
      onClose={onClose}
      title={code ? `Edit ${code.iataCode}` : 'Add IATA Code'}
      okText={code ? 'Save' : 'Add'}
    >
      <div className="form-grid">
        {CODE_FIELDS.map(({ label, name, maxLength }) => (
          <Form.Item key={name} label={label} name={name} rules={IATA_RULES[name]}>
            <ShapedInput shape={upper} maxLength={maxLength} />
          </Form.Item>
        ))}
      </div>
      <Form.Item label="City" name="municipality">
        <Input maxLength={100} />
      </Form.Item>
    </RecordDialog>
  );
}
