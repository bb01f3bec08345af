import { Alert, Button, Form, Input, Switch } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { londonToday, shapePhone } from '@crewswap/proto/browser';
import type { Pilot } from '@crewswap/proto';
import { endSession } from '../../api/client';
import { queryKeys } from '../../api/keys';
import { useCheckMasterRosterCooldown, useDeletePilot, useUpdatePilot } from '../../api/pilots';
import { useSetting } from '../../api/settings';
import { AppModal, okAction } from '../../shared/AppModal';
import { RoleInfoDialog, type RoleInfo } from '../../shared/infoTexts';
import { PilotRoleFields } from '../../shared/PilotRoleFields';
import { SearchDayRangeItem } from '../../shared/SearchDayRangeItem';
import { shapeName, shapeNameTyping } from '../../shared/shaping';
import { toast } from '../../shared/toast';
import { useConfirm, useNotice } from '../../shared/useConfirm';
import { lockedUntil, profileChanges, profileFromPilot, profileProblem, type ProfileValues } from './profileRules';

const ChangePasswordDialog = lazy(() => import('./ChangePasswordDialog'));
// With its QR code: loaded when the dialog opens, never on the first load.
const CalendarFeedSection = lazy(() => import('./CalendarFeedSection'));
const RosterAddressSection = lazy(() => import('../roster/RosterAddressSection'));

/** Edit My Details. */
export default function EditDetailsDialog({ pilot, onClose }: { pilot: Pilot; onClose: () => void }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const notice = useNotice();
  const [form] = Form.useForm<ProfileValues>();
  const rank = Form.useWatch('rank', form) ?? pilot.rank;
  const updatePilot = useUpdatePilot();
  const deletePilot = useDeletePilot();
  const checkCooldown = useCheckMasterRosterCooldown();
  const swapSearchDays = useSetting('swap_search_days').data;
  const [info, setInfo] = useState<RoleInfo | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const today = londonToday();
  const rankLock = lockedUntil(pilot.rankLastChanged, today);
  const fleetLock = lockedUntil(pilot.fleetLastChanged, today);
  const ltcLock = lockedUntil(pilot.ltcLastChanged, today);

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
    checkCooldown.mutate(pilot.id, {
      onSuccess: (cooldown) => {
        if (cooldown.canEnable) form.setFieldValue('usualReq', true);
        else {
          void notice(
            'Master Roster Cooldown',
            `You have ${cooldown.daysRemaining} days remaining before you can turn Master Roster back on. This prevents switching it on and off to see other pilots' rosters.`,
          );
        }
      },
    });
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
    updatePilot.mutate(
      { id: pilot.id, changes },
      {
        onSuccess: () => {
          toast.success('Profile Updated', 'Your details have been saved.');
          onClose();
        },
        // The form goes back to what the server has (re-read by the failed update).
        onError: () => form.setFieldsValue(profileFromPilot(queryClient.getQueryData<Pilot>(queryKeys.currentPilot) ?? pilot)),
      },
    );
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
    deletePilot.mutate(pilot.id, {
      onSuccess: () => {
        toast.success('Profile Deleted', 'Your profile has been deleted.');
        endSession();
      },
    });
  };

  return (
    <AppModal
      title="Edit My Details"
      onCancel={onClose}
      {...okAction('Update Profile', update, updatePilot)}
      cancelText="Close"
      width={600}
      start={
        <>
          <Button danger onClick={deleteProfile}>
            Delete Profile
          </Button>
          <Button onClick={() => setPasswordOpen(true)}>Change Password</Button>
        </>
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
        <SearchDayRangeItem defaultDays={swapSearchDays} />
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
      <Suspense fallback={null}>
        <RosterAddressSection />
      </Suspense>
      <Suspense fallback={null}>
        <CalendarFeedSection />
      </Suspense>
      <RoleInfoDialog info={info} onClose={() => setInfo(null)} />
      <Suspense fallback={null}>
        {passwordOpen && <ChangePasswordDialog pilotId={pilot.id} onClose={() => setPasswordOpen(false)} />}
      </Suspense>
    </AppModal>
  );
}
