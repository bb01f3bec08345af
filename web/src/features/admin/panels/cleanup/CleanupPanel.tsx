import { Button, Card, Form, InputNumber, Select, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { CLEANUP_FREQUENCIES, CLEANUP_RETENTION } from '@crewswap/proto/browser';
import type { CleanupConfig, CleanupFrequency, CleanupRun, DeletedPilotList } from '@crewswap/proto';
import { toast } from '../../../../shared/toast';
import { useCleanupConfig, useCleanupHistory, useDeletedPilots, useRemoveDeletedPilot, useSaveCleanupConfig } from '../../api/cleanup';
import { formatDateTime, formatDay } from '../../format';
import { emptyTextOf } from '../../layout/FailedLoad';
import { pageOf, useUrlState } from '../../useUrlState';
import { RunCleanupDialog } from './RunCleanupDialog';
import { RETENTION_RULES } from './rules';

type DeletedPilot = DeletedPilotList['deletedPilots'][number];

/** Deleted pilots stay this many days before they may be removed for good. */
export const COOLING_OFF_DAYS = 30;

const FREQUENCY_LABELS: Record<CleanupFrequency, string> = {
  stopped: 'Stopped',
  daily: 'Daily (01:00 UTC)',
  weekly: 'Weekly (Sunday 01:00 UTC)',
  monthly: 'Monthly (1st at 01:00 UTC)',
};

/** Data Cleanup: the schedule, a manual run (with a preview), the last 30 runs and deleted pilots in cooling-off. */
export default function CleanupPanel() {
  const config = useCleanupConfig();
  const [running, setRunning] = useState(false);
  return (
    <div className="admin-panel">
      {config.data ? <ConfigCard config={config.data} onRun={() => setRunning(true)} /> : <Skeleton active />}
      <History />
      <DeletedPilots />
      {running && <RunCleanupDialog initialDays={config.data?.retentionDays ?? CLEANUP_RETENTION.default} onClose={() => setRunning(false)} />}
    </div>
  );
}

function ConfigCard({ config, onRun }: { config: CleanupConfig; onRun: () => void }) {
  const save = useSaveCleanupConfig();
  const [form] = Form.useForm<{ frequency: CleanupFrequency; retentionDays: number }>();
  return (
    <Card title="Cleanup Configuration">
      <Form
        form={form}
        layout="vertical"
        initialValues={{ frequency: config.frequency, retentionDays: config.retentionDays }}
        onFinish={(values) => save.mutate(values, { onSuccess: () => toast.success('Configuration Updated', 'The cleanup schedule has been saved.') })}
      >
        <div className="form-grid">
          <Form.Item label="Frequency" name="frequency">
            <Select aria-label="Frequency" options={CLEANUP_FREQUENCIES.map((value) => ({ value, label: FREQUENCY_LABELS[value] }))} />
          </Form.Item>
          <Form.Item label="Retention (days)" name="retentionDays" rules={RETENTION_RULES} extra="Trips that ended more than this many days ago are deleted.">
            <InputNumber inputMode="numeric" className="admin-number" />
          </Form.Item>
        </div>
        <Typography.Paragraph type="secondary">Next scheduled run: {config.nextScheduledRun ? formatDateTime(config.nextScheduledRun) : 'not scheduled'}</Typography.Paragraph>
        <div className="admin-button-row">
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            Save Configuration
          </Button>
          <Button onClick={onRun}>Run Cleanup Now</Button>
        </div>
      </Form>
    </Card>
  );
}

function History() {
  const history = useCleanupHistory();
  const { data, isLoading } = history;
  const [filters, setFilters] = useUrlState({ runs: '1' });
  return (
    <Card title="Cleanup History (last 30 runs)">
      <Table<CleanupRun>
        rowKey="id"
        size="small"
        loading={isLoading}
        dataSource={data ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: emptyTextOf(history, 'No cleanup runs yet') }}
        pagination={{ current: pageOf(filters.runs), pageSize: 10, showSizeChanger: false, hideOnSinglePage: true, onChange: (page) => setFilters({ runs: String(page) }) }}
        columns={[
          { title: 'Date', dataIndex: 'runDate', render: formatDateTime },
          {
            title: 'Type',
            dataIndex: 'runType',
            render: (type: string) => (type.startsWith('scheduled_') ? `Scheduled (${type.slice('scheduled_'.length)})` : type === 'manual' ? 'Manual' : type),
          },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (status: string, run) => {
              const shown = status === 'success' || status === 'failed' ? status : 'partial';
              const color = shown === 'success' ? 'success' : shown === 'failed' ? 'error' : 'warning';
              return (
                <Tag color={color} title={run.errorMessage ?? undefined}>
                  {shown}
                </Tag>
              );
            },
          },
          { title: 'Retention', dataIndex: 'retentionDays', render: (days: number) => `${days} days` },
          { title: 'Trips Deleted', dataIndex: 'tripsDeleted', align: 'right' },
          { title: 'Notifications Deleted', dataIndex: 'notificationsDeleted', align: 'right' },
          { title: 'Time', dataIndex: 'executionTimeMs', align: 'right', render: (ms: number) => `${ms} ms` },
          { title: 'Cutoff', dataIndex: 'cutoffDate', render: formatDay },
        ]}
      />
    </Card>
  );
}

function DeletedPilots() {
  const deleted = useDeletedPilots();
  const { data, isLoading } = deleted;
  const remove = useRemoveDeletedPilot();
  return (
    <Card title={`Deleted Pilots (${COOLING_OFF_DAYS}-day cooling-off)`}>
      <Table<DeletedPilot>
        rowKey="id"
        size="small"
        loading={isLoading}
        dataSource={data?.deletedPilots ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: emptyTextOf(deleted, 'No deleted pilots in the cooling-off period') }}
        columns={[
          { title: 'Pilot', key: 'name', render: (_, p) => `${p.rank} ${p.firstName} ${p.lastName}` },
          { title: 'Employee ID', dataIndex: 'employeeId' },
          { title: 'Fleet', dataIndex: 'fleet' },
          { title: 'Deleted', dataIndex: 'deletionDate', render: formatDay },
          {
            title: 'Age',
            dataIndex: 'daysSinceDeletion',
            render: (days: number) => (days > COOLING_OFF_DAYS ? <Typography.Text type="danger">{days} days</Typography.Text> : `${days} days`),
          },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, p) =>
              p.canRemove ? (
                <Button
                  danger
                  size="small"
                  loading={remove.isPending && remove.variables === p.id}
                  onClick={() => remove.mutate(p.id, { onSuccess: () => toast.success('Pilot Removed', `${p.firstName} ${p.lastName} has been removed permanently.`) })}
                >
                  Remove
                </Button>
              ) : (
                <Typography.Text type="secondary">In cooling-off</Typography.Text>
              ),
          },
        ]}
      />
    </Card>
  );
}
