import { Tabs } from 'antd';
import { useUrlState } from '../../useUrlState';
import { ExcludedAirports } from './ExcludedAirports';
import { IataCodes } from './IataCodes';

/** IATA Codes and the Excluded Airports list, one tab each (the tab is in the address). */
export default function AirportsPanel() {
  const [state, setState] = useUrlState({ tab: 'iata' });
  return (
    <Tabs
      activeKey={state.tab}
      onChange={(tab) => setState({ tab })}
      items={[
        { key: 'iata', label: 'IATA Codes', children: <IataCodes /> },
        { key: 'excluded', label: 'Excluded Airports', children: <ExcludedAirports /> },
      ]}
    />
  );
}
