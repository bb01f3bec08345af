import { Alert, Button, Form, Input, Switch } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { londonToday, shapePhone } from '@crewswap/proto/browser';
import type { Pilot } from '@crewswap/proto';
import { useSetCurrentPilot } from '../../api/auth';
import { endSession, errorMessage, request, withExpirySuppressed } from '../../api/client';
import { queryKeys } from '../../api/keys';
import { pilotsApi } from '../../api/pilots';
import { AppModal } from '../../shared/AppModal';
import { LTC_INFO, MasterRosterInfo } from '../../shared/infoTexts';
import { PilotRoleFields } from '../../shared/PilotRoleFields';
import { shapeName, shapeNameTyping } from '../../shared/shaping';
import { toast } from '../../shared/toast';
import { useConfirm, useNotice } from '../../shared/useConfirm';
import { lockedUntil, profileChanges, profileFromPilot, profileProblem, type ProfileValues } from './profileRules';

const ChangePasswordDialog = lazy(() => import('./ChangePasswordDialog'));

/** Edit My Details. */
export default function EditDetailsDialog({ pilot, onClose }: { pilot: Pilot; onClose: () => void }) {
  const queryClient = useQueryClient();
  const setCurrentPilot = useSetCurrentPilot();
  const confirm = useConfirm();
  const notice = useNotice();
  const [form] = Form.useForm<ProfileValues>();
  const rank = Form.useWatch('rank', form) ?? pilot.rank;
  const [busy, setBusy] = useState(false);
  const [info, setInfo] = useState<'ltc' | 'master' | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const today = londonToday();
  const rankLock = lockedUntil(pilot.rankLastChanged, today);
  const fleetLock = lockedUntil(pilot.fleetLastChanged, today);
  const ltcLock = lockedUntil(pilot.ltcLastChanged, today);

  const resetToServer = async () => {
    try {
      const fresh = await request<Pilot>('/api/pilot/current');
      setCurrentPilot(fresh);
      form.setFieldsValue(profileFromPilot(fresh));
    } catch {
      form.setFieldsValue(profileFromPilot(pilot));
    }
  };

  const changeMasterRoster = async (on: boolean) => {
    if (!on) {
      const ok = await confirm({
        title: 'Turn Off Master Roster?',
        content:
          'You will lose Trip Search, the Master Calendar and the Crossover Calendar, and other pilots will only see your swap offers. Once saved, Master Roster cannot be turned back on for 30 days.',
        okText: 'Turn Off',
        danger: true,
      });
      if (ok) form.setFieldValue('usualReq', false);
      return;
    }
    if (pilot.usualReq) {
      form.setFieldValue('usualReq', true);
      return;
    }
    try {
      const cooldown = await pilotsApi.masterRosterCooldown(pilot.id);
      if (cooldown.canEnable) form.setFieldValue('usualReq', true);
      else {
        void notice(
          'Master Roster Cooldown',
          `You have ${cooldown.daysRemaining} days remaining before you can turn Master Roster back on. This prevents switching it on and off to see other pilots' rosters.`,
        );
      }
    } catch {
      toast.error('Error', 'Failed to check Master Roster cooldown. Please try again.');
    }
  };

  const update = async () => {
    const values = { ...profileFromPilot(pilot), ...form.getFieldsValue(true) } as ProfileValues;
    values.firstName = shapeName(values.firstName);
    values.lastName = shapeName(values.lastName);
    const problem = profileProblem(values);
    if (problem) return toast.error(problem.title, problem.message);
    const changes = profileChanges(pilot, values);
    if (Object.keys(changes).length === 0) return toast.info('No Changes', 'There is nothing to update.');
    const locked = 'Once changed, it cannot be changed again for one year.';
    if (changes.rank && !(await confirm({ title: 'Confirm Rank Change', content: `Change your rank from ${pilot.rank} to ${changes.rank}? ${locked}` }))) return;
    if (changes.fleet && !(await confirm({ title: 'Confirm Fleet Change', content: `Change your fleet from ${pilot.fleet} to ${changes.fleet}? ${locked}` }))) return;
    if (changes.ltc !== undefined && !(await confirm({ title: 'Confirm LTC Change', content: `${changes.ltc ? 'Become' : 'Stop being'} an LTC trainer? ${locked}` }))) return;
    setBusy(true);
    try {
      const updated = await pilotsApi.update(pilot.id, changes);
      setCurrentPilot(updated);
      if (changes.ltc !== undefined || changes.fleet || changes.rank) await queryClient.invalidateQueries({ queryKey: queryKeys.trips });
      toast.success('Profile Updated', 'Your details have been saved.');
      onClose();
    } catch (error) {
      toast.error('Update Failed', errorMessage(error) || 'Failed to update profile.');
      await resetToServer();
    } finally {
      setBusy(false);
    }
  };

  const deleteProfile = async () => {
    const ok = await confirm({
      title: 'Delete Profile?',
      content:
        'Your trips are deleted immediately. Your registration details are kept for 30 days so that you can restore your account, then they are removed.',
      okText: 'Delete Profile',
      danger: true,
    });
    if (!ok) return;
    try {
      await withExpirySuppressed(() => pilotsApi.remove(pilot.id));
      toast.success('Profile Deleted', 'Your profile has been deleted.');
      endSession();
    } catch (error) {
      toast.error('Error', errorMessage(error) || 'Failed to delete profile');
    }
  };

  return (
    <AppModal
      open
      title="Edit My Details"
      onCancel={onClose}
      width={600}
      footer={
        <div className="dialog-footer-wrap">
          <Button danger onClick={deleteProfile}>
            Delete Profile
          </Button>
          <Button onClick={() => setPasswordOpen(true)}>Change Password</Button>
          <span className="spacer" />
          <Button onClick={onClose}>Close</Button>
          <Button type="primary" loading={busy} onClick={update}>
            Update Profile
          </Button>
        </div>
      }
    >
      <Form
        form={form}
        name="profile"
        layout="vertical"
        initialValues={profileFromPilot(pilot)}
        onValuesChange={(changed: Partial<ProfileValues>) => {
          if (changed.rank) form.setFieldsValue({ apic: true, ...(changed.rank === 'FO' ? { ltc: false } : {}) });
        }}
      >
        <div className="form-grid">
          <Form.Item label="First Name" name="firstName" normalize={shapeNameTyping}>
            <Input autoComplete="given-name" />
          </Form.Item>
          <Form.Item label="Last Name" name="lastName" normalize={shapeNameTyping}>
            <Input autoComplete="family-name" />
          </Form.Item>
        </div>
        <Form.Item label="Phone" name="phone" normalize={shapePhone}>
          <Input inputMode="tel" autoComplete="tel" />
        </Form.Item>
        <PilotRoleFields rank={rank} locks={{ rank: rankLock, fleet: fleetLock, ltc: ltcLock }} onLtcInfo={() => setInfo('ltc')} />
        <div className="inline-row">
          <span id="profile-master-roster">Master Roster</span>
          <Form.Item name="usualReq" valuePropName="checked" noStyle>
            <Switch
              checkedChildren="ON"
              unCheckedChildren="OFF"
              aria-labelledby="profile-master-roster"
              // The form only changes through the confirmations below.
              onChange={(on) => {
                form.setFieldValue('usualReq', !on);
                void changeMasterRoster(on);
              }}
            />
          </Form.Item>
          <Button type="link" onClick={() => setInfo('master')}>
            About Master Roster
          </Button>
        </div>
        <Alert
          type="info"
          className="form-alert"
          title="Rank, fleet and LTC changes are locked for one year after each change."
        />
      </Form>
      <AppModal
        open={info !== null}
        title={info === 'ltc' ? 'LTC (Trainer)' : 'Master Roster'}
        onCancel={() => setInfo(null)}
        footer={<Button onClick={() => setInfo(null)}>Close</Button>}
      >
        {info === 'ltc' ? <p>{LTC_INFO}</p> : <MasterRosterInfo />}
      </AppModal>
      <Suspense fallback={null}>
        {passwordOpen && <ChangePasswordDialog pilotId={pilot.id} onClose={() => setPasswordOpen(false)} />}
      </Suspense>
    </AppModal>
  );
}
