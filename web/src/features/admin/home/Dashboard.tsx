import { Card, Empty, List, Skeleton, Statistic, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { CurrentAdmin } from '@crewswap/proto';
import { useActiveSessions, useAnalytics, useRecentRegistrations } from '../api/dashboard';
import { FailedLoad, figureOf, type LoadedQuery } from '../layout/FailedLoad';
import { canOpen, hasPermission } from '../permissions';
import { resourceNamed, type AdminResource } from '../resources';
import { formatNumericDate } from '../../../shared/format';

const ANALYTICS = resourceNamed('analytics')!;
const PILOTS = resourceNamed('pilots')!;
const SESSIONS = resourceNamed('sessions')!;

/** The console's home: three cards that open their panels, and the latest registrations. */
export function Dashboard({ admin }: { admin: CurrentAdmin }) {
  const navigate = useNavigate();
  const seesAnalytics = canOpen(admin, ANALYTICS);
  const seesSessions = canOpen(admin, SESSIONS);
  const analytics = useAnalytics(seesAnalytics);
  const sessions = useActiveSessions(seesSessions);

  /** A card that opens `resource`; its number needs `counted` (the call behind it has its own permission). */
  const card = (resource: AdminResource, title: string, counted: boolean, query: LoadedQuery & { isLoading: boolean }, value: number | undefined, footer: string, search = '') => {
    const allowed = canOpen(admin, resource);
    const open = () => allowed && navigate(`/admin/${resource.name}${search}`);
    return (
      <Card
        hoverable={allowed}
        className={allowed ? 'admin-stat-card' : 'admin-stat-card admin-menu-dimmed'}
        role="button"
        aria-label={title}
        aria-disabled={!allowed}
        tabIndex={allowed ? 0 : -1}
        onClick={open}
        onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && open()}
      >
        <Statistic title={title} loading={counted && query.isLoading} value={counted ? figureOf(query, value, 0) : '—'} />
        <Typography.Text type="secondary">{footer}</Typography.Text>
      </Card>
    );
  };

  return (
    <div className="admin-home">
      <div className="admin-cards">
        {card(PILOTS, 'Registered Pilots', seesAnalytics, analytics, analytics.data?.pilots.total, 'Manage pilots')}
        {card(ANALYTICS, 'Total Trips', seesAnalytics, analytics, analytics.data?.trips.total, `${figureOf(analytics, analytics.data?.trips.swapOffers, 0)} offered for swap`)}
        {card(SESSIONS, 'Active Sessions', seesSessions, sessions, sessions.data?.activeCount, 'View history', '?history=on')}
      </div>
      <Registrations enabled={hasPermission(admin, SESSIONS.permissions)} />
    </div>
  );
}

/** Name (rank, fleet, employee id), the M.R. badge and the registration date, newest first. */
function Registrations({ enabled }: { enabled: boolean }) {
  const registrations = useRecentRegistrations(enabled);
  const { data, isLoading } = registrations;
  const rows = data?.recentRegistrations ?? [];
  return (
    <Card title="Registrations" className="admin-registrations">
      <div className="admin-registrations-head" aria-hidden>
        <span>Name</span>
        <span>M.R.</span>
        <span>Reg Date</span>
      </div>
      <div className="admin-registrations-scroll">
        {isLoading ? (
          <Skeleton active />
        ) : registrations.isError && !data ? (
          <FailedLoad query={registrations} />
        ) : rows.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No recent registrations available" />
        ) : (
          <List
            dataSource={rows}
            rowKey={(row) => `${row.employeeId}-${row.registrationDate}`}
            renderItem={(row) => (
              <List.Item className="admin-registration-row">
                <div>
                  <Typography.Text strong>{row.pilotName}</Typography.Text>
                  <div>
                    <Typography.Text type="secondary">
                      {row.pilotRank} · {row.fleet} · {row.employeeId}
                    </Typography.Text>
                  </div>
                </div>
                <Tag color={row.masterRosterEnabled ? 'success' : 'error'}>{row.masterRosterEnabled ? 'ON' : 'OFF'}</Tag>
                <Typography.Text>{formatNumericDate(row.registrationDate)}</Typography.Text>
              </List.Item>
            )}
          />
        )}
      </div>
    </Card>
  );
}
