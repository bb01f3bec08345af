import { DeleteOutlined, EditOutlined, KeyOutlined } from '@ant-design/icons';
import { Button, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { AdminPilot, AdminPilotsQuery } from '@crewswap/proto';
import { isLtcCaptain } from '@crewswap/proto/browser';
import { FLEET_OPTIONS, RANK_OPTIONS } from '../../../../shared/options';
import { Tooltip } from '../../../../shared/Tooltip';
import { useDebounced } from '../../../../shared/useDebounced';
import { useAdminPilots } from '../../api/pilots';
import { emptyTextOf } from '../../layout/FailedLoad';
import { pageOf, useUrlState } from '../../useUrlState';
import { DeletePilotDialog } from './DeletePilotDialog';
import { EditPilotDialog } from './EditPilotDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';

const FILTERS = { search: '', fleet: '', rank: '', data: '', masterRoster: '', trips: '', page: '1' };
const PAGE_SIZE = 20;

type Dialog = { kind: 'edit' | 'password' | 'delete'; pilot: AdminPilot } | null;

/** Manage Pilots: search and filters (kept in the address), 'Showing X of Y pilots', and per-pilot actions. */
export default function PilotsPanel() {
  const [filters, setFilters, clearFilters] = useUrlState(FILTERS);
  const [search, setSearch] = useState(filters.search);
  const debounced = useDebounced(search, 300);
  useEffect(() => {
    if (debounced !== filters.search) setFilters({ search: debounced });
    // Only the typed text drives this; the address follows it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  const [dialog, setDialog] = useState<Dialog>(null);

  const query: AdminPilotsQuery = {
    search: filters.search || undefined,
    fleet: (filters.fleet || undefined) as AdminPilotsQuery['fleet'],
    rank: (filters.rank || undefined) as AdminPilotsQuery['rank'],
    data: (filters.data || undefined) as AdminPilotsQuery['data'],
    masterRoster: (filters.masterRoster || undefined) as AdminPilotsQuery['masterRoster'],
    trips: (filters.trips || undefined) as AdminPilotsQuery['trips'],
  };
  const loaded = useAdminPilots(query);
  const { data, isLoading, isFetching } = loaded;
  const pilots = data?.pilots ?? [];
  const filtered = Object.entries(filters).some(([key, value]) => key !== 'page' && value !== '');

  const select = (key: keyof typeof FILTERS, label: string, options: { value: string; label: string }[]) => (
    <Select
      aria-label={label}
      placeholder={label}
      allowClear
      value={filters[key] || undefined}
      onChange={(value?: string) => setFilters({ [key]: value ?? '' })}
      options={options}
      className="admin-filter"
    />
  );

  return (
    <div className="admin-panel">
      <div className="admin-filters">
        <Input.Search aria-label="Search pilots" placeholder="Search name, employee ID, email" allowClear value={search} onChange={(e) => setSearch(e.target.value)} className="admin-search" />
        {select('fleet', 'Fleet', FLEET_OPTIONS)}
        {select('rank', 'Rank', RANK_OPTIONS)}
        {select('data', 'Data', [
          { value: 'real', label: 'Real data' },
          { value: 'test', label: 'Test data' },
        ])}
        {select('masterRoster', 'Master Roster', [
          { value: 'on', label: 'Master Roster ON' },
          { value: 'off', label: 'Master Roster OFF' },
        ])}
        {select('trips', 'Trips', [
          { value: 'zero', label: 'Zero trips only' },
          { value: 'has', label: 'Has trips' },
        ])}
        <Button
          disabled={!filtered}
          onClick={() => {
            setSearch('');
            clearFilters();
          }}
        >
          Clear Filters
        </Button>
      </div>
      <Typography.Text type="secondary" role="status">
        Showing {pilots.length} of {data?.total ?? 0} pilots
        {data && !data.tripCountsAvailable && ' (trip counts unavailable)'}
      </Typography.Text>
      <Table<AdminPilot>
        rowKey="id"
        loading={isLoading || isFetching}
        dataSource={pilots}
        locale={{ emptyText: emptyTextOf(loaded) }}
        size="middle"
        scroll={{ x: 'max-content' }}
        pagination={{
          current: pageOf(filters.page),
          pageSize: PAGE_SIZE,
          showSizeChanger: false,
          onChange: (page) => setFilters({ page: String(page) }),
        }}
        columns={[
          {
            title: 'Name',
            key: 'name',
            fixed: 'left',
            render: (_, pilot) => (
              <span>
                {pilot.firstName} {pilot.lastName} {pilot.testData && <Tag>Test</Tag>}
              </span>
            ),
          },
          { title: 'Employee ID', dataIndex: 'employeeId' },
          {
            title: 'Rank',
            key: 'rank',
            render: (_, pilot) => `${pilot.rank}${pilot.rank === 'FO' && pilot.apic ? ' APIC' : ''}${isLtcCaptain(pilot) ? ' LTC' : ''}`,
          },
          { title: 'Fleet', dataIndex: 'fleet' },
          { title: 'Base', dataIndex: 'base' },
          { title: 'Email', dataIndex: 'email' },
          { title: 'Phone', dataIndex: 'phone' },
          {
            title: 'M.R.',
            dataIndex: 'usualReq',
            render: (on: boolean) => <Tag color={on ? 'success' : 'error'}>{on ? 'ON' : 'OFF'}</Tag>,
          },
          { title: 'Trips', dataIndex: 'tripCount', align: 'right', render: (count: number | null) => count ?? '—' },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, pilot) => (
              <Space>
                <Tooltip title="Edit">
                  <Button aria-label={`Edit ${pilot.firstName} ${pilot.lastName}`} icon={<EditOutlined />} onClick={() => setDialog({ kind: 'edit', pilot })} />
                </Tooltip>
                <Tooltip title="Reset Password">
                  <Button
                    aria-label={`Reset password of ${pilot.firstName} ${pilot.lastName}`}
                    icon={<KeyOutlined />}
                    onClick={() => setDialog({ kind: 'password', pilot })}
                  />
                </Tooltip>
                <Tooltip title="Delete">
                  <Button
                    danger
                    aria-label={`Delete ${pilot.firstName} ${pilot.lastName}`}
                    icon={<DeleteOutlined />}
                    onClick={() => setDialog({ kind: 'delete', pilot })}
                  />
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
      {dialog?.kind === 'edit' && <EditPilotDialog pilot={dialog.pilot} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'password' && <ResetPasswordDialog pilot={dialog.pilot} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && <DeletePilotDialog pilot={dialog.pilot} onClose={() => setDialog(null)} />}
    </div>
  );
}
