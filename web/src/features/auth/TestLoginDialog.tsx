import { Button, Input, Segmented, Tag } from 'antd';
import { useState } from 'react';
import type { LoginResponse } from '@crewswap/proto';
import { authApi } from '../../api/auth';
import { ApiError, errorMessage } from '../../api/client';
import { useAllPilots, type ListedPilot } from '../../api/pilots';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import { ShowHide } from './LoginForm';
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
  const [busyId, setBusyId] = useState<string | null>(null);
  const shown = filterTestPilots(pilots ?? [], filter, search);

  const loginAs = async (pilot: ListedPilot) => {
    if (password === '') {
      toast.error('Access Denied', 'Incorrect password.');
      return;
    }
    setBusyId(pilot.id);
    try {
      onLoggedIn(await authApi.testLogin(pilot.email, password));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        toast.error(error.title ?? 'Access Denied', error.title ? error.message : 'Incorrect password.');
      } else {
        toast.error('Test Login Failed', errorMessage(error));
      }
    } finally {
      setBusyId(null);
    }
  };

  return (
    <AppModal open title="Test Pilot Login" onCancel={onClose} footer={<Button onClick={onClose}>Close</Button>} width={640}>
      <div className="stack">
        <label className="field-label" htmlFor="testing-password">
          Testing Password
        </label>
        <Input.Password
          id="testing-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          iconRender={(visible) => <ShowHide visible={visible} />}
        />
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
                disabled={busyId !== null}
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
