import { Card, Input, Select, Statistic, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import type { RosterHistoryQuery, RosterHistoryRecord, RosterTripChange } from '@crewswap/proto';
import { formatNumericDate } from '../../../../shared/format';
import { Tooltip } from '../../../../shared/Tooltip';
import { useDebounced } from '../../../../shared/useDebounced';
import { useRosterHistory, useRosterStats } from '../../api/rosters';
import { emptyTextOf } from '../../layout/FailedLoad';
import { formatDateTime, kilobytes, seconds } from '../../format';
import { pageOf, useUrlState } from '../../useUrlState';

const FILTERS = { search: '', source: '', status: '', range: '', page: '1' };
const PAGE_SIZE = 25;
/** Durations over this are highlighted (spec section 9). */
export const SLOW_MS = 2000;

/** Roster Processing History: four stat cards, search and filters in the address, the wide table; refreshed every 30 s. */
export default function RostersPanel() {
  const [filters, setFilters] = useUrlState(FILTERS);
  const [search, setSearch] = useState(filters.search);
  const debounced = useDebounced(search, 300);
  useEffect(() => {
    if (debounced !== filters.search) setFilters({ search: debounced });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  const page = pageOf(filters.page);
  const query: Partial<RosterHistoryQuery> = {
    search: filters.search || undefined,
    source: (filters.source || undefined) as RosterHistoryQuery['source'],
    status: (filters.status || undefined) as RosterHistoryQuery['status'],
    range: (filters.range || undefined) as RosterHistoryQuery['range'],
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
  const history = useRosterHistory(query);
  const stats = useRosterStats();
  const s = stats.data;
  const successRate = s && s.totalProcessed > 0 ? Math.round((s.successfulProcessed / s.totalProcessed) * 100) : 0;

  return (
    <div className="admin-panel">
      <div className="admin-cards admin-cards-four">
        <Card>
          <Statistic title="Total Processed" value={s?.totalProcessed ?? 0} loading={stats.isLoading} />
          <span className="admin-muted">
            {s?.emailProcessed ?? 0} email · {s?.manualProcessed ?? 0} manual
          </span>
        </Card>
        <Card>
          <Statistic title="Success Rate" value={successRate} suffix="%" loading={stats.isLoading} />
          <span className="admin-muted">{s?.successfulProcessed ?? 0} successful</span>
        </Card>
        <Card>
          <Statistic title="Average Duration" value={seconds(s?.averageDurationMs ?? 0)} loading={stats.isLoading} />
        </Card>
        <Card>
          <Statistic title="Trips Added" value={s?.totalTripsAdded ?? 0} loading={stats.isLoading} />
        </Card>
      </div>
      <div className="admin-filters">
        <Input.Search aria-label="Search rosters" placeholder="Search pilot, employee ID, sender, file" allowClear value={search} onChange={(e) => setSearch(e.target.value)} className="admin-search" />
        <Select
          aria-label="Source"
          placeholder="Source"
          allowClear
          className="admin-filter"
          value={filters.source || undefined}
          onChange={(value?: string) => setFilters({ source: value ?? '' })}
          options={[
            { value: 'email', label: 'Email' },
            { value: 'manual_upload', label: 'Manual upload' },
            { value: 'subscription', label: 'Roster address' },
          ]}
        />
        <Select
          aria-label="Status"
          placeholder="Status"
          allowClear
          className="admin-filter"
          value={filters.status || undefined}
          onChange={(value?: string) => setFilters({ status: value ?? '' })}
          options={[
            { value: 'success', label: 'Success' },
            { value: 'failed', label: 'Failed' },
          ]}
        />
        <Select
          aria-label="Date range"
          placeholder="Date range"
          allowClear
          className="admin-filter"
          value={filters.range || undefined}
          onChange={(value?: string) => setFilters({ range: value ?? '' })}
          options={[
            { value: 'today', label: 'Today' },
            { value: '7days', label: 'Last 7 days' },
            { value: '30days', label: 'Last 30 days' },
          ]}
        />
      </div>
      <Table<RosterHistoryRecord>
        rowKey="id"
        size="small"
        loading={history.isLoading}
        dataSource={history.data?.records ?? []}
        locale={{ emptyText: emptyTextOf(history) }}
        scroll={{ x: 'max-content' }}
        rowClassName={(row) => (row.durationMs > SLOW_MS ? 'admin-slow-row' : '')}
        // An import that changed or removed trips opens to each trip's before and after.
        expandable={{
          rowExpandable: (row) => row.tripsChanged + row.tripsRemoved > 0,
          expandedRowRender: (row) => (
            <ul className="roster-changes" aria-label="Roster changes">
              {row.changes.map((change) => (
                <li key={`${change.kind}-${change.tripId}`}>{describeChange(change)}</li>
              ))}
            </ul>
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: history.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (next) => setFilters({ page: String(next) }),
        }}
        columns={[
          { title: 'Time', dataIndex: 'createdAt', fixed: 'left', render: formatDateTime },
          { title: 'Pilot', key: 'pilot', render: (_, r) => r.pilotName ?? '—' },
          { title: 'Employee ID', dataIndex: 'employeeId', render: (v: string | null) => v ?? '—' },
          { title: 'Source', dataIndex: 'sourceType', render: (v: string) => (v === 'email' ? 'Email' : v === 'subscription' ? 'Roster address' : 'Manual upload') },
          {
            title: 'Status',
            dataIndex: 'success',
            render: (ok: boolean, r) => (
              <Tooltip title={r.errorMessage ?? undefined}>
                <Tag color={ok ? 'success' : 'error'}>{ok ? 'Success' : 'Failed'}</Tag>
              </Tooltip>
            ),
          },
          { title: 'Stage', dataIndex: 'validationStage' },
          { title: 'File', dataIndex: 'fileName', render: (v: string | null) => v ?? '—' },
          { title: 'Format', dataIndex: 'fileFormatReceived', render: (v: string | null) => v ?? '—' },
          { title: 'Attachments', dataIndex: 'attachmentCount', align: 'right' },
          { title: 'Size', dataIndex: 'fileSizeBytes', align: 'right', render: kilobytes },
          { title: 'Sender', dataIndex: 'senderEmail', render: (v: string | null) => v ?? '—' },
          { title: 'Events', dataIndex: 'totalEvents', align: 'right' },
          { title: 'Added', dataIndex: 'tripsAdded', align: 'right' },
          { title: 'Changed', dataIndex: 'tripsChanged', align: 'right' },
          { title: 'Removed', dataIndex: 'tripsRemoved', align: 'right' },
          { title: 'Skipped', dataIndex: 'skippedEvents', align: 'right' },
          { title: 'Duplicates', dataIndex: 'duplicateEvents', align: 'right' },
          { title: 'Conflicts', dataIndex: 'conflictEvents', align: 'right' },
          {
            title: 'Duration',
            dataIndex: 'durationMs',
            align: 'right',
            render: (ms: number) => (ms > SLOW_MS ? <strong className="admin-slow">{seconds(ms)}</strong> : seconds(ms)),
          },
          { title: 'Confirmation', dataIndex: 'confirmationEmailSent', render: (sent: boolean) => (sent ? 'Sent' : '—') },
          { title: 'Error', key: 'error', render: (_, r) => (r.errorType ? `${r.errorType}${r.errorMessage ? `: ${r.errorMessage}` : ''}` : '—') },
          { title: 'IP Address', dataIndex: 'ipAddress', render: (v: string | null) => v ?? '—' },
        ]}
      />
    </div>
  );
}

/** One roster change as the history lists it: 'Changed: VS007/VS008 LAX 01/08/2027 to 01/11/2027 -> VS023/VS024 ...'. */
function describeChange(change: RosterTripChange): string {
  const name = (trip: NonNullable<RosterTripChange['before']>) => `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route} ${formatNumericDate(trip.startDate)} to ${formatNumericDate(trip.endDate)}`;
  if (change.kind === 'added') return `Added: ${name(change.after!)}`;
  if (change.kind === 'removed') return `Removed: ${name(change.before!)}`;
  return `Changed: ${name(change.before!)} -> ${name(change.after!)}`;
}
