import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table } from 'antd';
import { useMemo, useState } from 'react';
import type { IataCode } from '@crewswap/proto';
import { toast } from '../../../../shared/toast';
import { useConfirm } from '../../../../shared/useConfirm';
import { useAdminIataCodes, useDeleteIataCode } from '../../api/airports';
import { emptyTextOf } from '../../layout/FailedLoad';
import { pageOf, useUrlState } from '../../useUrlState';
import { IataCodeDialog } from './IataCodeDialog';

const PAGE_SIZE = 20;

export function IataCodes() {
  const [filters, setFilters] = useUrlState({ q: '', page: '1' });
  const codes = useAdminIataCodes();
  const { data, isLoading } = codes;
  const remove = useDeleteIataCode();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<IataCode | 'new' | null>(null);

  const rows = useMemo(() => {
    const needle = filters.q.trim().toLowerCase();
    const all = data ?? [];
    if (!needle) return all;
    return all.filter((code) =>
      [code.iataCode, code.icaoCode, code.municipality, code.isoCountry, code.continent].some((field) => field?.toLowerCase().includes(needle)),
    );
  }, [data, filters.q]);

  const askDelete = async (code: IataCode) => {
    const yes = await confirm({ title: 'Delete IATA Code', content: `Delete ${code.iataCode}?`, okText: 'Delete', danger: true });
    if (yes) remove.mutate(code.id, { onSuccess: () => toast.success('IATA Code Deleted', `${code.iataCode} has been deleted.`) });
  };

  return (
    <div className="admin-panel">
      <div className="admin-filters">
        <Input.Search aria-label="Search IATA codes" placeholder="Search code, city, country" allowClear value={filters.q} onChange={(e) => setFilters({ q: e.target.value })} className="admin-search" />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          Add IATA Code
        </Button>
      </div>
      <Table<IataCode>
        rowKey="id"
        size="small"
        loading={isLoading}
        dataSource={rows}
        locale={{ emptyText: emptyTextOf(codes) }}
        scroll={{ x: 'max-content' }}
        pagination={{ current: pageOf(filters.page), pageSize: PAGE_SIZE, showSizeChanger: false, onChange: (page) => setFilters({ page: String(page) }) }}
        columns={[
          { title: 'IATA', dataIndex: 'iataCode' },
          { title: 'ICAO', dataIndex: 'icaoCode', render: (v: string | null) => v ?? '—' },
          { title: 'City', dataIndex: 'municipality', render: (v: string | null) => v ?? '—' },
          { title: 'Country', dataIndex: 'isoCountry', render: (v: string | null) => v ?? '—' },
          { title: 'Continent', dataIndex: 'continent', render: (v: string | null) => v ?? '—' },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, code) => (
              <Space>
                <Button aria-label={`Edit ${code.iataCode}`} icon={<EditOutlined />} onClick={() => setEditing(code)} />
                <Button aria-label={`Delete ${code.iataCode}`} danger icon={<DeleteOutlined />} onClick={() => void askDelete(code)} />
              </Space>
            ),
          },
        ]}
      />
      {editing && <IataCodeDialog code={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
