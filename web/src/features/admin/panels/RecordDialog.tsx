import { Form, type FormInstance, type FormProps } from 'antd';
import type { ReactNode } from 'react';
import { AppModal, okAction } from '../../../shared/AppModal';

/** The part of a mutation the dialog uses: method syntax, so any useMutation of these variables fits. */
interface Saving<Variables> {
  mutate(variables: Variables, options: { onSuccess: () => void }): void;
  isPending: boolean;
}

interface Props<Values, Body> {
  /** The record being edited; null adds a new one. */
  record: { id: string } | null;
  form: FormInstance<Values>;
  initialValues: FormProps<Values>['initialValues'];
  add: Saving<Body>;
  update: Saving<{ id: string; body: Body }>;
  /** What both requests send, from the checked fields. */
  toBody: (values: Values) => Body;
  /** Once the server has the record, just before the dialog closes (e.g. a toast). */
  onSaved: (body: Body) => void;
  onClose: () => void;
  title: string;
  okText: string;
  width?: number;
  children: ReactNode;
}

/**
 * An admin list's Add / Edit dialog: the fields are checked, the record is added (or updated by its
 * id), and the dialog says so and closes. A request that fails keeps the dialog open.
 */
export function RecordDialog<Values, Body>({ record, form, initialValues, add, update, toBody, onSaved, onClose, title, okText, width, children }: Props<Values, Body>) {
  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const body = toBody(values);
    const done = () => {
      onSaved(body);
      onClose();
    };
    if (record) update.mutate({ id: record.id, body }, { onSuccess: done });
    else add.mutate(body, { onSuccess: done });
  };

  return (
    <AppModal title={title} width={width} onCancel={onClose} {...okAction(okText, () => void save(), record ? update : add)}>
      <Form form={form} layout="vertical" initialValues={initialValues}>
        {children}
      </Form>
    </AppModal>
  );
}
