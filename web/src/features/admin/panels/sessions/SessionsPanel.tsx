import { Card, Empty, Statistic, Switch, Table, Tag, Typography } from 'antd';
import type { ActiveSessions, SessionHistory } from '@crewswap/proto';
import { useActiveSessions, useSessionHistory } from '../../api/dashboard';
import { formatDateTime } from '../../format';
import { emptyTextOf, figureOf } from '../../layout/FailedLoad';
import { useUrlState } from '../../useUrlState';

type ActivePilot = ActiveSessions['activePilots'][number];
type LoginEntry = SessionHistory['recentLogins'][number];

/** The spec shows the 20 most recent logins. */
const HISTORY_LENGTH = 20;

/** Active count, unique pilots, who is signed in now, and (toggled) the recent logins. */
export default function SessionsPanel() {
  const [state, setState] = useUrlState({ history: 'off' });
  const showHistory = state.history === 'on';
  const active = useActiveSessions();
  const history = useSessionHistory(showHistory);

  return (
    <div className="admin-panel">
      <div className="admin-cards">
        <Card>
          <Statistic title="Active Sessions" value={figureOf(active, active.data?.activeCount, 0)} loading={active.isLoading} />
        </Card>
        <Card>
          <Statistic title="Unique Pilots" value={figureOf(active, active.data?.uniquePilots, 0)} loading={active.isLoading} />
        </Card>
      </div>
      <Typography.Title level={4}>Active Pilots</Typography.Title>
      <Table<ActivePilot>
        rowKey={(row) => `${row.id}-${row.loginTime}`}
        loading={active.isLoading}
        dataSource={active.data?.activePilots ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: emptyTextOf(active, <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No active sessions" />) }}
        columns={[
          { title: 'Pilot', key: 'name', render: (_, row) => `${row.rank} ${row.firstName} ${row.lastName}` },
          { title: 'Employee ID', dataIndex: 'employeeId' },
          { title: 'Fleet', dataIndex: 'fleet' },
          { title: 'Login Time', dataIndex: 'loginTime', render: formatDateTime },
          { title: 'Last Activity', dataIndex: 'lastActivity', render: formatDateTime },
        ]}
      />
      <label className="admin-toggle">
        <Switch checked={showHistory} onChange={(on) => setState({ history: on ? 'on' : 'off' })} />
        <span>Show Login History</span>
      </label>
      {showHistory && (
        <Table<LoginEntry>
          rowKey={(row) => `${row.employeeId}-${row.loginTime}`}
          loading={history.isLoading}
          dataSource={(history.data?.recentLogins ?? []).slice(0, HISTORY_LENGTH)}
          locale={{ emptyText: emptyTextOf(history) }}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: 'Pilot', key: 'pilot', render: (_, row) => `${row.pilotRank} ${row.pilotName}` },
            { title: 'Employee ID', dataIndex: 'employeeId' },
            { title: 'Login', dataIndex: 'loginTime', render: formatDateTime },
            { title: 'Logout', dataIndex: 'logoutTime', render: formatDateTime },
            { title: 'Duration', dataIndex: 'duration', render: (minutes: number) => `${minutes} min` },
            {
              title: 'Status',
              dataIndex: 'isActive',
              render: (isActive: boolean) => <Tag color={isActive ? 'success' : 'default'}>{isActive ? 'Active' : 'Ended'}</Tag>,
            },
          ]}
        />
      )}
    </div>
  );
}
