import { Button, Card, Form, Input, InputNumber, Skeleton, Typography } from 'antd';
import { SYSTEM_SETTING_KEYS } from '@crewswap/proto/browser';
import type { SettingKey } from '@crewswap/proto';
import { toast } from '../../../../shared/toast';
import { useConfirm } from '../../../../shared/useConfirm';
import { settingValue, useAdminSettings, useClearPushSubscriptions, useUpdateSettings } from '../../api/settings';
import { useCurrentAdmin } from '../../api/session';
import { hasPermission } from '../../permissions';
import { SYSTEM_RULES } from './settingsRules';

type Values = Record<(typeof SYSTEM_SETTING_KEYS)[number], string>;

const FIELDS: { key: keyof Values; label: string; help?: string }[] = [
  { key: 'interbids_url', label: 'Interbids URL' },
  { key: 'upload_email', label: 'Roster Upload Email', help: 'Pilots email their rosters to this address.' },
  { key: 'outgoing_email', label: 'Outgoing Email Address' },
  { key: 'user_guide_path', label: 'User Guide Path' },
  {
    key: 'tech_support_whatsapp_url',
    label: 'Tech Support WhatsApp Group Link',
    help: "The group's invite link (https://chat.whatsapp.com/...). Pilots' Tech Support shows its join button and QR code; leave blank until there is one.",
  },
  { key: 'crewing_email', label: 'Crewing Email Address', help: "Agreed swaps' crewing requests are also mailed here; leave blank to mail only the two pilots." },
];

/** System Settings: the spec's five values and the Tech Support link with one Save, and Clear Push Subscriptions. */
export default function SystemSettingsPanel() {
  const { data, isLoading } = useAdminSettings();
  const { data: me } = useCurrentAdmin();
  if (isLoading || !data || !me) return <Skeleton active />;
  const initial = Object.fromEntries(SYSTEM_SETTING_KEYS.map((key) => [key, settingValue(data, key)])) as Values;
  return (
    <div className="admin-panel">
      <SettingsForm initial={initial} />
      <ClearPushSubscriptions allowed={hasPermission(me, ['manage_system'])} />
    </div>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function SettingsForm({ initial }: { initial: Values }) {
  const [form] = Form.useForm<Values>();
  const update = useUpdateSettings();
  const save = (values: Values) => {
    const changed = Object.fromEntries(
      (Object.keys(values) as (keyof Values)[]).map((key) => [key, String(values[key]).trim()]).filter(([key, value]) => value !== initial[key as keyof Values]),
    ) as Partial<Record<SettingKey, string>>;
    if (Object.keys(changed).length === 0) {
      toast.info('No Changes', 'Nothing to save.');
      return;
    }
    update.mutate(changed, { onSuccess: () => toast.success('Settings updated', 'The system settings have been saved.') });
  };
  return (
    <Card title="General">
      <Form form={form} layout="vertical" initialValues={initial} onFinish={save}>
        {FIELDS.map((field) => (
          <Form.Item key={field.key} label={field.label} name={field.key} rules={SYSTEM_RULES[field.key]} extra={field.help}>
            <Input />
          </Form.Item>
        ))}
        <Form.Item label="Max Find Swaps Range (days)" name="swap_search_days" rules={SYSTEM_RULES.swap_search_days} extra="1 to 30 days either side of a trip.">
          <InputNumber inputMode="numeric" className="admin-number" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          Save Settings
        </Button>
      </Form>
    </Card>
  );
}

/** The notifications service clears subscriptions for manage_system only (the menu also lets manage_settings in). */
export function ClearPushSubscriptions({ allowed }: { allowed: boolean }) {
  const clear = useClearPushSubscriptions();
  const confirm = useConfirm();
  const ask = async () => {
    const yes = await confirm({
      title: 'Clear Push Subscriptions',
      content: 'Every device will stop receiving push notifications until its pilot turns them on again. Continue?',
      okText: 'Clear All',
      danger: true,
    });
    if (yes) clear.mutate(undefined, { onSuccess: (answer) => toast.success('Subscriptions Cleared', `${answer.message} (${plural(answer.deleted, 'device')} removed).`) });
  };
  return (
    <Card title="Push Notifications">
      <Typography.Paragraph type="secondary">Removes every stored push subscription (for example after changing the push keys).</Typography.Paragraph>
      {!allowed && <Typography.Paragraph type="secondary">Clearing subscriptions needs the Manage System permission.</Typography.Paragraph>}
      <Button danger onClick={() => void ask()} loading={clear.isPending} disabled={!allowed}>
        Clear Push Subscriptions
      </Button>
    </Card>
  );
}
