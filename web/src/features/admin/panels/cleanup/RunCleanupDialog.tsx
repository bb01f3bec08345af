import { Alert, Button, Form, InputNumber, Typography } from 'antd';
import { useState } from 'react';
import { AppModal, okAction } from '../../../../shared/AppModal';
import { toast } from '../../../../shared/toast';
import { useCleanupPreview, useRunCleanup } from '../../api/cleanup';
import { RETENTION_RULES } from './rules';

/** A manual run: choose the retention, see how many trips would go (Preview), then run. */
export function RunCleanupDialog({ initialDays, onClose }: { initialDays: number; onClose: () => void }) {
  const [form] = Form.useForm<{ retentionDays: number }>();
  const preview = useCleanupPreview();
  const run = useRunCleanup();
  const [previewed, setPreviewed] = useState<{ days: number; trips: number } | null>(null);

  const days = async () => (await form.validateFields().catch(() => null))?.retentionDays ?? null;
  const showPreview = async () => {
    const value = await days();
    if (value === null) return;
    preview.mutate(value, { onSuccess: ({ tripsToDelete }) => setPreviewed({ days: value, trips: tripsToDelete }) });
  };
  const start = async () => {
    const value = await days();
    if (value === null) return;
    run.mutate(value, {
      onSuccess: ({ tripsDeleted, notificationsDeleted }) => {
        toast.success('Cleanup Completed', `Deleted ${tripsDeleted} trips and ${notificationsDeleted} notifications`);
        onClose();
      },
    });
  };

  return (
    <AppModal
      title="Run Cleanup"
      onCancel={onClose}
      {...okAction('Run Cleanup', () => void start(), run)}
      okButtonProps={{ danger: true }}
      extra={
        <Button onClick={() => void showPreview()} loading={preview.isPending}>
          Preview
        </Button>
      }
    >
      <Typography.Paragraph>Deletes trips that ended more than the chosen number of days ago, and old notifications.</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ retentionDays: initialDays }} onValuesChange={() => setPreviewed(null)}>
        <Form.Item label="Retention (days)" name="retentionDays" rules={RETENTION_RULES}>
          <InputNumber inputMode="numeric" className="admin-number" />
        </Form.Item>
      </Form>
      {previewed && (
        <Alert
          type="info"
          showIcon
          role="status"
          title={`${previewed.trips} trip${previewed.trips === 1 ? '' : 's'} would be deleted with ${previewed.days} days' retention`}
        />
      )}
    </AppModal>
  );
}
