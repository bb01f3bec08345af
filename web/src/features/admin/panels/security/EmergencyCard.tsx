import { Alert, Button, Card, Form, Input, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { AppModal, okAction } from '../../../../shared/AppModal';
import { toast } from '../../../../shared/toast';
import { useEmergencyShutdown, useEmergencyStatus, useResumeOperations } from '../../api/emergency';

export const CONFIRM_WORD = 'EMERGENCY';
export const CONFIRM_MESSAGE = 'Please type EMERGENCY to confirm';

/** Normal operations or shutdown (polled every 5 s), with the way into the other state. */
export function EmergencyCard() {
  const status = useEmergencyStatus();
  const resume = useResumeOperations();
  const [asking, setAsking] = useState(false);
  const down = status.data?.isShutdown === true;
  return (
    <Card title="Emergency Shutdown" className={down ? 'admin-emergency admin-emergency-active' : 'admin-emergency'}>
      {status.isLoading ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : down ? (
        <>
          <Alert type="error" showIcon title="System is in emergency shutdown" description="Pilot logins are blocked and every pilot session has been ended." role="status" />
          <Button
            type="primary"
            className="admin-emergency-action"
            loading={resume.isPending}
            onClick={() => resume.mutate(undefined, { onSuccess: (answer) => toast.success('Operations Resumed', answer.message) })}
          >
            Resume Operations
          </Button>
        </>
      ) : (
        <>
          <Typography.Paragraph role="status">
            <strong>Normal operations.</strong> An emergency shutdown ends every pilot session and blocks pilot logins until operations resume.
          </Typography.Paragraph>
          <Button danger type="primary" onClick={() => setAsking(true)}>
            Emergency Shutdown
          </Button>
        </>
      )}
      {asking && <ShutdownDialog onClose={() => setAsking(false)} />}
    </Card>
  );
}

function ShutdownDialog({ onClose }: { onClose: () => void }) {
  const shutdown = useEmergencyShutdown();
  const [word, setWord] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = () => {
    if (word !== CONFIRM_WORD) {
      setProblem(CONFIRM_MESSAGE);
      return;
    }
    shutdown.mutate(
      { reason: reason.trim() || null },
      {
        onSuccess: (answer) => {
          toast.success('Emergency Shutdown Activated', `${answer.message} (${answer.sessionsTerminated} sessions ended)`);
          onClose();
        },
      },
    );
  };
  return (
    <AppModal title="Confirm Emergency Shutdown" onCancel={onClose} {...okAction('Activate Shutdown', confirm, shutdown)} okButtonProps={{ danger: true }}>
      <Typography.Paragraph>Every pilot is signed out at once and no pilot can sign in until operations are resumed.</Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item label="Reason (optional)" htmlFor="shutdown-reason">
          <Input.TextArea id="shutdown-reason" rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Form.Item>
        <Form.Item label={`Type ${CONFIRM_WORD} to confirm`} htmlFor="shutdown-confirm" validateStatus={problem ? 'error' : undefined} help={problem}>
          <Input id="shutdown-confirm" autoComplete="off" value={word} onChange={(e) => setWord(e.target.value)} />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
