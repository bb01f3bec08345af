import { Button, Card, Form, Input, Select, Skeleton, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { EMERGENCY_PERMISSIONS, SESSION_TIMEOUT_OPTIONS } from '@crewswap/proto/browser';
import type { SettingKey } from '@crewswap/proto';
import { toast } from '../../../../shared/toast';
import { useConfirm } from '../../../../shared/useConfirm';
import { useRestartServer } from '../../api/emergency';
import { settingValue, useAdminSettings, useUpdateSetting } from '../../api/settings';
import { useCurrentAdmin } from '../../api/session';
import { formatUtc } from '../../format';
import { hasPermission } from '../../permissions';
import { SECURITY_RULES } from '../settings/settingsRules';
import { EmergencyCard } from './EmergencyCard';

/** A random 6-digit number, as the spec's daily access code is. */
export function newAccessCode(): string {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return String(100000 + ((value ?? 0) % 900000));
}

/** Security: session timeout (a change needs a confirmed restart), toggles, daily access code, access code details, emergency shutdown. */
export default function SecurityPanel() {
  const { data: me } = useCurrentAdmin();
  const { data, isLoading } = useAdminSettings();
  if (isLoading || !data || !me) return <Skeleton active />;
  const value = (key: SettingKey) => settingValue(data, key);
  const updatedAt = data.find((s) => s.key === 'daily_access_code')?.updated_at ?? null;
  return (
    <div className="admin-panel">
      <SessionTimeout current={value('session_timeout_minutes')} />
      <Toggles
        verification={value('email_verification_enabled') === 'true'}
        testing={value('testing_button_enabled') === 'true'}
        testingPasswordSet={data.find((s) => s.key === 'testing_password')?.isSet ?? false}
      />
      <AccessCode code={value('daily_access_code')} updatedAt={updatedAt} />
      <AccessCodeDetails path={value('access_code_path')} email={value('access_code_email')} />
      {/* The server's rule (EMERGENCY_PERMISSIONS) includes the Security menu's own permission, so whoever opens this panel has it. */}
      {hasPermission(me, EMERGENCY_PERMISSIONS) && <EmergencyCard />}
    </div>
  );
}

function SessionTimeout({ current }: { current: string }) {
  const update = useUpdateSetting();
  const restart = useRestartServer();
  const confirm = useConfirm();
  const [form] = Form.useForm<{ minutes: string }>();

  const change = async ({ minutes }: { minutes: string }) => {
    if (String(minutes) === current) return;
    const yes = await confirm({
      title: 'Restart Required',
      content:
        'Changing the session timeout requires a server restart. The services will drain their connections and restart; signed-in users may need to sign in again. Save and restart now?',
      okText: 'Save and Restart',
      danger: true,
    });
    if (!yes) {
      form.setFieldsValue({ minutes: current });
      return;
    }
    update.mutate(
      { key: 'session_timeout_minutes', value: String(minutes) },
      {
        onSuccess: () =>
          restart.mutate(undefined, {
            onSuccess: (answer) => toast.success('Settings updated', answer.message),
          }),
      },
    );
  };

  return (
    <Card title="Session Timeout">
      <Form form={form} layout="inline" initialValues={{ minutes: current }} onFinish={(values) => void change(values)} className="admin-inline-form">
        <Form.Item label="Pilot session timeout" name="minutes" rules={SECURITY_RULES.session_timeout_minutes}>
          <Select
            className="admin-filter"
            options={SESSION_TIMEOUT_OPTIONS.map((minutes) => ({ value: String(minutes), label: minutes < 60 ? `${minutes} minutes` : `${minutes / 60} hour${minutes === 60 ? '' : 's'}` }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending || restart.isPending}>
          Save
        </Button>
      </Form>
    </Card>
  );
}

function Toggles({ verification, testing, testingPasswordSet }: { verification: boolean; testing: boolean; testingPasswordSet: boolean }) {
  const update = useUpdateSetting();
  const set = (key: SettingKey, on: boolean, what: string) =>
    update.mutate({ key, value: on ? 'true' : 'false' }, { onSuccess: () => toast.success('Settings updated', `${what} ${on ? 'enabled' : 'disabled'}.`) });
  return (
    <Card title="Access">
      <label className="admin-toggle">
        <Switch checked={verification} loading={update.isPending && update.variables?.key === 'email_verification_enabled'} onChange={(on) => set('email_verification_enabled', on, 'Email verification')} />
        <span>Email verification for new pilots</span>
      </label>
      <label className="admin-toggle">
        <Switch checked={testing} loading={update.isPending && update.variables?.key === 'testing_button_enabled'} onChange={(on) => set('testing_button_enabled', on, 'Testing mode')} />
        <span>Testing mode (the login page's Testing button)</span>
      </label>
      <TestingPassword isSet={testingPasswordSet} />
    </Card>
  );
}

/**
 * The testing panel's password: write-only. The server never sends it back (decisions.md), so the
 * field starts empty and empties again once saved.
 */
function TestingPassword({ isSet }: { isSet: boolean }) {
  const update = useUpdateSetting();
  const [draft, setDraft] = useState('');
  const save = () =>
    update.mutate(
      { key: 'testing_password', value: draft },
      {
        onSuccess: () => {
          setDraft('');
          toast.success('Settings updated', 'The testing password has been changed.');
        },
      },
    );
  return (
    <Form layout="vertical" component="div" className="admin-testing-password">
      <Form.Item label="Testing password" htmlFor="testing-password" help={isSet ? 'A testing password is set (never shown); type a new one to change it.' : 'No testing password is set yet.'}>
        <Input.Password id="testing-password" autoComplete="new-password" value={draft} onChange={(e) => setDraft(e.target.value)} />
      </Form.Item>
      <Button onClick={save} disabled={draft === ''} loading={update.isPending && update.variables?.key === 'testing_password'}>
        Set Testing Password
      </Button>
    </Form>
  );
}

function AccessCode({ code, updatedAt }: { code: string; updatedAt: string | null }) {
  const update = useUpdateSetting();
  const [draft, setDraft] = useState(code);
  const [problem, setProblem] = useState<string | null>(null);
  const unsaved = draft !== code;
  const save = () => {
    if (draft.trim() === '') {
      setProblem('Daily access code is required');
      return;
    }
    // The server refuses anything else; a generated code always fits.
    if (!/^\d{6}$/.test(draft.trim())) {
      setProblem('Daily access code must be exactly 6 digits');
      return;
    }
    setProblem(null);
    update.mutate({ key: 'daily_access_code', value: draft.trim() }, { onSuccess: () => toast.success('Settings updated', 'The daily access code has been saved.') });
  };
  return (
    <Card title="Daily Access Code">
      <Form layout="vertical" component="div">
        <Form.Item label="Code" htmlFor="daily-access-code" validateStatus={problem ? 'error' : undefined} help={problem ?? `Last updated ${formatUtc(updatedAt)}`}>
          <Input id="daily-access-code" className="admin-code-input" inputMode="numeric" value={draft} onChange={(e) => setDraft(e.target.value)} suffix={unsaved ? <Tag color="warning">Unsaved</Tag> : undefined} />
        </Form.Item>
      </Form>
      <div className="admin-button-row">
        <Button
          onClick={() => {
            setDraft(newAccessCode());
            toast.success('New Code Generated', 'Save it to make it the daily access code.');
          }}
        >
          Generate
        </Button>
        <Button type="primary" onClick={save} disabled={!unsaved} loading={update.isPending}>
          Save
        </Button>
      </div>
    </Card>
  );
}

function AccessCodeDetails({ path, email }: { path: string; email: string }) {
  const update = useUpdateSetting();
  const [form] = Form.useForm<{ access_code_path: string; access_code_email: string }>();
  const save = async (values: { access_code_path: string; access_code_email: string }) => {
    const changes = ([['access_code_path', values.access_code_path.trim(), path], ['access_code_email', values.access_code_email.trim(), email]] as const).filter(
      ([, next, before]) => next !== before,
    );
    let failed = false;
    // The failure toast comes from the mutation; here only whether to say 'Settings updated'.
    for (const [key, value] of changes) await update.mutateAsync({ key, value }).catch(() => (failed = true));
    if (changes.length > 0 && !failed) toast.success('Settings updated', 'Access code details saved.');
  };
  return (
    <Card title="Access Code Details">
      <Form form={form} layout="vertical" initialValues={{ access_code_path: path, access_code_email: email }} onFinish={(values) => void save(values)}>
        <Form.Item label="Access Code Path" name="access_code_path" rules={SECURITY_RULES.access_code_path}>
          <Input />
        </Form.Item>
        <Form.Item label="Access Code Email" name="access_code_email" rules={SECURITY_RULES.access_code_email}>
          <Input type="email" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          Save
        </Button>
      </Form>
    </Card>
  );
}
