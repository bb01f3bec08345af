import { Input, Segmented, Tag } from 'antd';
import { useState } from 'react';
import type { LoginResponse } from '@crewswap/proto';
import { useTestLogin } from '../../api/auth';
import { useAllPilots, type ListedPilot } from '../../api/pilots';
import { AppModal } from '../../shared/AppModal';
import { PasswordInput } from '../../shared/PasswordInput';
import { toast } from '../../shared/toast';
import { filterTestPilots, type PilotFilter } from './testPilots';

interface Props {
  onClose: () => void;
  onLoggedIn: (answer: LoginResponse) => void;
}

/** Testing mode: log in as any listed pilot with the testing password (checked by the server). */
export default function TestLoginDialog({ onClose, onLoggedIn }: Props) {
  const { data: pilots, isLoading, isError } = useAllPilots(true);
  const [password, setPassword] = useState('');
  const [filter, setFilter] = useState<PilotFilter>('all');
  const [search, setSearch] = useState('');
  const testLogin = useTestLogin();
  const shown = filterTestPilots(pilots ?? [], filter, search);

  const loginAs = (pilot: ListedPilot) => {
    if (password === '') {
      toast.error('Access Denied', 'Incorrect password.');
      return;
    }
    testLogin.mutate(
      { email: pilot.email, password },
      {
        onSuccess: (answer) => {
          onLoggedIn(answer);
          onClose();
        },
      },
    );
  };

  return (
    <AppModal title="Test Pilot Login" onCancel={onClose} width={640}>
      <div className="stack">
        <label className="field-label" htmlFor="testing-password">
          Testing Password
        </label>
        <PasswordInput id="testing-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        <Segmented<PilotFilter>
          block
          value={filter}
          onChange={setFilter}
          options={[
            { value: 'all', label: 'All' },
            { value: 'real', label: 'Real Pilots' },
            { value: 'test', label: 'Test Pilots' },
          ]}
        />
        <Input.Search
          aria-label="Search pilots"
          placeholder="Name, employee ID, rank or fleet"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          allowClear
        />
        <div className="pilot-list" role="list">
          {isLoading && <p className="muted">Loading test pilots...</p>}
          {isError && <p className="muted">Failed to load pilots.</p>}
          {!isLoading && !isError && shown.length === 0 && (
            <p className="muted">No pilots found matching {search.trim() === '' ? 'this filter' : `"${search.trim()}"`}</p>
          )}
          {shown.map((pilot) => (
            <div key={pilot.id} role="listitem">
              <button
                type="button"
                className="pilot-row"
                disabled={testLogin.isPending}
                onClick={() => loginAs(pilot)}
                aria-label={`Log in as ${pilot.firstName} ${pilot.lastName}`}
              >
                <span className={pilot.testData === false ? 'pilot-name real' : 'pilot-name'}>
                  {pilot.firstName} {pilot.lastName}
                </span>
                <span className="pilot-tags">
                  <Tag>{pilot.rank}</Tag>
                  <Tag>{pilot.fleet}</Tag>
                  {pilot.ltc ? <Tag color="blue">LTC</Tag> : pilot.apic ? <Tag color="gold">APIC</Tag> : null}
                  <span className="muted">{pilot.employeeId}</span>
                </span>
              </button>
            </div>
          ))}
        </div>
      </div>
    </AppModal>
  );
}
