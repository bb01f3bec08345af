import { Form } from 'antd';
import { ShapedInput, type ShapedInputProps } from './fields';

/**
 * A ShapedInput under its label in an antd Form whose values the dialog keeps itself (no `name`):
 * the label names the input by `id`. Its own file: fields.tsx is on the login screen, Form is not.
 */
export function ShapedField({ id, label, ...input }: ShapedInputProps & { id: string; label: string }) {
  return (
    <Form.Item label={label} htmlFor={id}>
      <ShapedInput id={id} {...input} />
    </Form.Item>
  );
}
