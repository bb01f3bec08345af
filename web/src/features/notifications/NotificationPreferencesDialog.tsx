import { BellOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Button, Spin, Switch, Tag } from 'antd';
import type { UpdateNotificationPreferencesBody } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import {
  useNotificationPreferences,
  usePushSubscription,
  useSubscribePush,
  useTestPush,
  useUnsubscribePush,
  useUpdateNotificationPreferences,
  useVapidPublicKey,
} from '../../api/notifications';
import { pushStatus, type PushStatus } from '../../api/push';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import { AlertSettings } from './AlertSettings';
import { PrefRow } from './PrefRow';
import './notifications.css';

const BADGE: Record<PushStatus, 'success' | 'error' | 'warning' | 'default'> = {
  Enabled: 'success',
  Disabled: 'default',
  'Permission Needed': 'warning',
  Blocked: 'error',
  'Not Supported': 'default',
};

const STATUS_TEXT: Record<PushStatus, string> = {
  Enabled: 'This device receives push notifications.',
  Disabled: 'This device does not receive push notifications. Turn on Enable Push to receive them.',
  'Permission Needed': 'Turn on Enable Push and allow notifications when your browser asks.',
  Blocked: 'Notifications are blocked for this site. Enable them in your browser settings, then refresh the page.',
  'Not Supported':
    'This browser cannot receive push notifications. On an iPhone or iPad, add the app to your Home Screen and open it from there.',
};

/** The alert switches, each saving only its own field. Enabled is the master switch: while it is off the others change nothing, so they are greyed out. */
const ALERT_SWITCHES: { field: 'enabled' | 'swapNotifications' | 'whatsappGroupAlerts' | 'swapProposals'; id: string; title: string; text: string }[] = [
  { field: 'enabled', id: 'pref-enabled', title: 'Enabled', text: 'Master switch for every alert below.' },
  { field: 'swapNotifications', id: 'pref-swaps', title: 'Swap Notifications', text: 'New swap offers that match your trips.' },
  { field: 'whatsappGroupAlerts', id: 'pref-whatsapp', title: 'WhatsApp Group Alerts', text: 'A WhatsApp group is created, claimed or deleted on one of your trips.' },
  { field: 'swapProposals', id: 'pref-proposals', title: 'Swap Proposals', text: 'A pilot proposes a swap for your offer, or answers your proposal.' },
];

/** The bell's dialog (pilot spec): this device's push subscription, the alert switches and a test push. */
export default function NotificationPreferencesDialog({ onClose }: { onClose: () => void }) {
  const preferences = useNotificationPreferences();
  const subscription = usePushSubscription();
  const subscribed = Boolean(subscription.data);
  const status = pushStatus(subscribed);
  const vapidKey = useVapidPublicKey(status !== 'Not Supported');
  const subscribe = useSubscribePush();
  const unsubscribe = useUnsubscribePush();
  const update = useUpdateNotificationPreferences();
  const testPush = useTestPush();
  const pushBusy = subscribe.isPending || unsubscribe.isPending || subscription.isLoading;

  const togglePush = (on: boolean) => {
    if (!on) return unsubscribe.mutate();
    if (!vapidKey.data) return toast.error('Notification Error', vapidKey.error ? errorMessage(vapidKey.error) : 'The push key has not loaded yet. Please try again.');
    subscribe.mutate(vapidKey.data, { onSuccess: () => toast.success('Push Enabled', 'This device will receive push notifications.') });
  };

  const save = (body: UpdateNotificationPreferencesBody) => update.mutate(body, { onSuccess: () => toast.success('Preferences Updated') });
  const change = (field: (typeof ALERT_SWITCHES)[number]['field'], value: boolean) => save({ [field]: value });

  const sendTest = () =>
    testPush.mutate(undefined, {
      onSuccess: () => toast.success('Test Notification Sent', 'It should appear on this device in a few seconds.'),
    });

  const prefs = preferences.data;
  const pending = update.isPending ? update.variables : undefined;
  return (
    <AppModal
      title={
        <span>
          <BellOutlined /> Notification Preferences
        </span>
      }
      onCancel={onClose}
      width={480}
      extra={
        <Button icon={<SendOutlined />} onClick={sendTest} loading={testPush.isPending} disabled={!subscribed || status !== 'Enabled'}>
          Send Test
        </Button>
      }
    >
      <div className="pref-status">
        <span>Push on this device</span>
        <Tag color={BADGE[status]} aria-label={`Push status: ${status}`}>
          {status}
        </Tag>
      </div>
      <p className="dialog-note">{STATUS_TEXT[status]}</p>
      <PrefRow
        id="pref-push"
        title="Enable Push"
        text="Receive notifications on this device, even when the app is closed."
        control={
          <Switch
            aria-labelledby="pref-push-label"
            checked={subscribed && status === 'Enabled'}
            loading={pushBusy}
            disabled={status === 'Not Supported' || status === 'Blocked'}
            onChange={togglePush}
          />
        }
      />
      {preferences.isLoading && <Spin />}
      {preferences.isError && <Alert type="error" showIcon title="Failed to load your notification preferences" description={errorMessage(preferences.error)} />}
      {prefs &&
        ALERT_SWITCHES.map(({ field, id, title, text }) => (
          <PrefRow
            key={field}
            id={id}
            title={title}
            text={text}
            control={
              <Switch
                aria-labelledby={`${id}-label`}
                checked={prefs[field]}
                disabled={field !== 'enabled' && !prefs.enabled}
                loading={pending?.[field] !== undefined}
                onChange={(value) => change(field, value)}
              />
            }
          />
        ))}
      {prefs && <AlertSettings prefs={prefs} change={save} />}
    </AppModal>
  );
}
