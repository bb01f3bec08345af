import { Form, InputNumber } from 'antd';

/**
 * A pilot's own swap search window (searchDayRange): days either side of a trip's start, 0 for
 * the same start date; empty uses the system's Max Find Swaps Range (pilot spec section 9).
 */
export function SearchDayRangeItem({ defaultDays }: { defaultDays?: string }) {
  return (
    <Form.Item
      label="Find Swaps range (days)"
      name="searchDayRange"
      htmlFor="search-day-range"
      extra={`Days either side of your trip's start; leave empty for the default${defaultDays ? ` (${defaultDays})` : ''}.`}
      normalize={(value: number | null) => (value === null || value === undefined ? null : value)}
    >
      <InputNumber id="search-day-range" min={0} max={30} precision={0} style={{ width: '100%' }} />
    </Form.Item>
  );
}
