import { Alert, Form, Input } from 'antd';
import { MAX_REFUSAL_REASON } from '@crewswap/proto/browser';
import type { SwapRequest } from '@crewswap/proto';
import { errorMessage } from '../../../../api/client';
import { AppModal, okAction } from '../../../../shared/AppModal';
import { toast } from '../../../../shared/toast';
import { useRefuseSwapRequest } from '../../api/swapRequests';
import { REFUSAL_REASON_RULES } from './refuseRules';
import { requestTitle } from './requestWords';

/** Refuse with a reason (required, at most 200 characters): the pilots read it; nothing moves. */
export function RefuseDialog({ request, onClose }: { request: SwapRequest; onClose: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const refuse = useRefuseSwapRequest();
  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    refuse.mutate(
      { id: request.id, body: { reason: values.reason.trim() } },
      {
        onSuccess: () => {
          toast.success('Swap Refused', `${requestTitle(request)}: both pilots have been told.`);
          onClose();
        },
      },
    );
  };
  return (
    <AppModal title={`Refuse: ${requestTitle(request)}`} onCancel={onClose} {...okAction('Refuse Swap', () => void save(), refuse)} okButtonProps={{ danger: true }}>
      {refuse.isError && <Alert className="admin-form-alert" type="error" showIcon title={errorMessage(refuse.error)} />}
      <Form form={form} layout="vertical" initialValues={{ reason: '' }}>
        <Form.Item label="Reason (the pilots read it)" name="reason" rules={REFUSAL_REASON_RULES}>
          <Input.TextArea rows={3} showCount={{ formatter: ({ count }) => `${count} / ${MAX_REFUSAL_REASON}` }} />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
