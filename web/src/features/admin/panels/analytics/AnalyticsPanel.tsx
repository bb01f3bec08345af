import { Card, Descriptions, Empty, Spin, Table, Typography } from 'antd';
import { errorMessage } from '../../../../api/client';
import { useAnalytics, useComprehensiveAnalytics, useProposalStats, useSwapBreakdown } from '../../api/dashboard';
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
  const { data, isLoading, error } = useAnalytics();
  if (isLoading) {
    return (
      <div className="page-center" role="status">
        <Spin />
        <Typography.Text type="secondary">Loading analytics...</Typography.Text>
      </div>
    );
  }
  // Not the empty state: a failure is not "no data" (the console's toast says it too, for a moment).
  if (error && !data) return <Empty description={<span role="alert">Failed to load analytics: {errorMessage(error)}</span>} />;
  const rows = data ? analyticsRows(data) : [];
  if (rows.length === 0) return <Empty description="No analytics data available" />;
  return (
    <div className="admin-panel">
      <Table<AnalyticsRow>
        columns={COLUMNS}
        dataSource={rows}
        rowKey="fleet"
        pagination={false}
        size="middle"
        scroll={{ x: 'max-content' }}
        rowClassName={(row) => (row.fleet === 'TOTAL' ? 'admin-total-row' : '')}
      />
      <MoreAnalytics />
    </div>
  );
}

const BASE_COLUMNS = [
  { title: 'Base', dataIndex: 'base', key: 'base' },
  { title: 'Pilots', dataIndex: 'pilotCount', key: 'pilotCount', align: 'right' as const },
  { title: 'Trips', dataIndex: 'totalTrips', key: 'totalTrips', align: 'right' as const },
  { title: 'Swaps', dataIndex: 'swapOffers', key: 'swapOffers', align: 'right' as const },
];

/** The server's comprehensive figures (by base, test data) and its swap breakdown, each shown once it has come. */
function MoreAnalytics() {
  const comprehensive = useComprehensiveAnalytics().data;
  const breakdown = useSwapBreakdown().data;
  const proposals = useProposalStats().data;
  return (
    <>
      {comprehensive && (
        <Card title="By Base" size="small">
          <Table columns={BASE_COLUMNS} dataSource={comprehensive.bases} rowKey="base" pagination={false} size="small" />
          <Typography.Paragraph type="secondary" className="admin-analytics-note">
            Test data: {comprehensive.testData.pilotCount} pilots, {comprehensive.testData.totalTrips} trips, {comprehensive.testData.swapOffers} swaps.
          </Typography.Paragraph>
        </Card>
      )}
      {breakdown && (
        <Card title="Swap Offers" size="small">
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, md: 3 }}
            items={[
              { key: 'total', label: 'Offered', children: breakdown.total },
              { key: 'training', label: 'Training', children: breakdown.training },
              { key: 'standby', label: 'Standby', children: breakdown.standby },
              { key: 'CP', label: 'By CPs', children: breakdown.byRank.CP },
              { key: 'FO', label: 'By FOs', children: breakdown.byRank.FO },
              ...Object.entries(breakdown.byFleet).map(([fleet, count]) => ({ key: fleet, label: fleet, children: count })),
            ]}
          />
        </Card>
      )}
      {proposals && (
        <Card title={`Swap Proposals (last ${proposals.days} days)`} size="small">
          {proposals.rows.length === 0 ? (
            <Empty description="No swap proposals yet" />
          ) : (
            <Table columns={PROPOSAL_COLUMNS} dataSource={proposals.rows} rowKey={(row) => `${row.fleet}-${row.rank}`} pagination={false} size="small" />
          )}
        </Card>
      )}
    </>
  );
}

const PROPOSAL_COLUMNS = [
  { title: 'Fleet', dataIndex: 'fleet', key: 'fleet' },
  { title: 'Rank', dataIndex: 'rank', key: 'rank' },
  { title: 'Made', dataIndex: 'made', key: 'made', align: 'right' as const },
  { title: 'Agreed', dataIndex: 'agreed', key: 'agreed', align: 'right' as const },
  { title: 'Cancelled', dataIndex: 'cancelled', key: 'cancelled', align: 'right' as const },
  { title: 'Approved', dataIndex: 'approved', key: 'approved', align: 'right' as const },
];

