import { DeleteOutlined } from '@ant-design/icons';
import { Button, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { ShapedInput } from '../../../../shared/fields';
import { toast } from '../../../../shared/toast';
import { useAddExcludedAirport, useDeleteExcludedAirport, useExcludedAirports } from '../../api/airports';
import { emptyTextOf } from '../../layout/FailedLoad';
import { EXCLUDED_CODE_MESSAGE, upper } from './iataForm';

/** Airports never shown as a trip's destination: the list, its count, add and delete. */
export function ExcludedAirports() {
  const excluded = useExcludedAirports();
  const { data, isLoading } = excluded;
  const add = useAddExcludedAirport();
  const remove = useDeleteExcludedAirport();
  const [code, setCode] = useState('');

  const submit = () => {
    const iataCode = code.trim();
    if (iataCode.length !== 3) {
      toast.error('Invalid IATA Code', EXCLUDED_CODE_MESSAGE);
      return;
    }
    add.mutate(
      { iataCode },
      {
        onSuccess: () => {
          toast.success('Airport Excluded', `${iataCode} will not be shown as a destination.`);
          setCode('');
        },
      },
    );
  };

  const airports = data ?? [];
  return (
    <div className="admin-panel">
      <Typography.Text type="secondary" role="status">
        {airports.length} excluded airport{airports.length === 1 ? '' : 's'} (LHR and MAN, the home bases, are always excluded)
      </Typography.Text>
      <Space.Compact className="admin-add-row">
        <ShapedInput aria-label="IATA code to exclude" placeholder="e.g. SNN" shape={upper} maxLength={3} value={code} onChange={setCode} onPressEnter={submit} />
        <Button type="primary" onClick={submit} loading={add.isPending}>
          Add
        </Button>
      </Space.Compact>
      <List
        loading={isLoading}
        dataSource={airports}
        locale={{ emptyText: emptyTextOf(excluded, 'No excluded airports') }}
        renderItem={(airport) => (
          <List.Item
            actions={[
              <Button
                key="delete"
                danger
                aria-label={`Delete ${airport.iataCode}`}
                icon={<DeleteOutlined />}
                onClick={() => remove.mutate(airport.id, { onSuccess: () => toast.success('Airport Removed', `${airport.iataCode} is no longer excluded.`) })}
              />,
            ]}
          >
            <Typography.Text strong>{airport.iataCode}</Typography.Text>
          </List.Item>
        )}
      />
    </div>
  );
}
