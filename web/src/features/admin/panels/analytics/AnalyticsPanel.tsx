import { Empty, Spin, Table, Typography } from 'antd';
import { useAnalytics } from '../../api/dashboard';
import { analyticsRows, type AnalyticsRow } from './analyticsRows';

const COLUMNS = [
  { title: 'Fleet', dataIndex: 'fleet', key: 'fleet', fixed: 'left' as const },
  { title: 'CPs', dataIndex: 'cpPilots', key: 'cpPilots', align: 'right' as const },
  { title: 'CP Trips', dataIndex: 'cpTrips', key: 'cpTrips', align: 'right' as const },
  { title: 'CP Swaps', dataIndex: 'cpSwaps', key: 'cpSwaps', align: 'right' as const },
  { title: 'FOs', dataIndex: 'foPilots', key: 'foPilots', align: 'right' as const },
  { title: 'FO Trips', dataIndex: 'foTrips', key: 'foTrips', align: 'right' as const },
  { title: 'FO Swaps', dataIndex: 'foSwaps', key: 'foSwaps', align: 'right' as const },
  { title: 'Fleet Trips', dataIndex: 'fleetTrips', key: 'fleetTrips', align: 'right' as const },
  { title: 'Fleet Swaps', dataIndex: 'fleetSwaps', key: 'fleetSwaps', align: 'right' as const },
];

/** 'Trip Analytics by Fleet & Rank': a row per fleet with data, then TOTAL. */
export default function AnalyticsPanel() {
  const { data, isLoading } = useAnalytics();
  if (isLoading) {
    return (
      <div className="page-center" role="status">
        <Spin />
        <Typography.Text type="secondary">Loading analytics...</Typography.Text>
      </div>
    );
  }
  const rows = data ? analyticsRows(data) : [];
  if (rows.length === 0) return <Empty description="No analytics data available" />;
  return (
    <Table<AnalyticsRow>
      columns={COLUMNS}
      dataSource={rows}
      rowKey="fleet"
      pagination={false}
      size="middle"
      scroll={{ x: 'max-content' }}
      rowClassName={(row) => (row.fleet === 'TOTAL' ? 'admin-total-row' : '')}
    />
  );
}

