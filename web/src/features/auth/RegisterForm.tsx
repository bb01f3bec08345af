import { Alert, Button, Form, Input, Switch } from 'antd';
import { useState } from 'react';
import { shapeEmailPrefix, shapePhone } from '@crewswap/proto/browser';
import type { DeletedPilotLookup, LoginResponse } from '@crewswap/proto';
import { authApi, loginEmail, useProductName } from '../../api/auth';
import { ApiError, errorMessage } from '../../api/client';
import { AppModal } from '../../shared/AppModal';
import { LTC_INFO, MasterRosterInfo } from '../../shared/infoTexts';
import { PilotRoleFields } from '../../shared/PilotRoleFields';
import { shapeName, shapeNameTyping } from '../../shared/shaping';
import { toast } from '../../shared/toast';
import type { PendingVerification } from './LoginPage';
import { ShowHide } from './LoginForm';
import { checkRegistration, REGISTRATION_DEFAULTS, shapeEmployeeId, type RegistrationValues } from './registration';

type DeletedPilot = NonNullable<DeletedPilotLookup['pilot']>;

interface Props {
  domain: string | undefined;
  onVerificationRequired: (pending: PendingVerification) => void;
  onLoggedIn: (answer: LoginResponse) => void;
  onRestored: (emailPrefix: string) => void;
}

export default function RegisterForm({ domain, onVerificationRequired, onLoggedIn, onRestored }: Props) {
  const productName = useProductName();
  const [form] = Form.useForm<RegistrationValues>();
  const rank = Form.useWatch('rank', form);
  const [confirming, setConfirming] = useState<RegistrationValues | null>(null);
  const [deleted, setDeleted] = useState<{ pilot: DeletedPilot; values: RegistrationValues } | null>(null);
  const [info, setInfo] = useState<'ltc' | 'master' | null>(null);
  const [busy, setBusy] = useState(false);

  const clear = () => form.setFieldsValue(REGISTRATION_DEFAULTS);

  const submit = async () => {
    const values = { ...REGISTRATION_DEFAULTS, ...form.getFieldsValue(true) } as RegistrationValues;
    values.firstName = shapeName(values.firstName);
    values.lastName = shapeName(values.lastName);
    const problem = checkRegistration(values);
    if (problem) {
      toast.error(problem.title, problem.message);
      return;
    }
    setBusy(true);
    try {
      const lookup = await authApi.checkDeletedPilot(values.employeeId);
      if (lookup.exists && lookup.pilot) {
        setDeleted({ pilot: lookup.pilot, values });
        return;
      }
    } catch {
      // The spec: if the lookup fails the confirm dialog is shown anyway.
    } finally {
      setBusy(false);
    }
    setConfirming(values);
  };

  const register = async (values: RegistrationValues) => {
    setBusy(true);
    try {
      const isCaptain = values.rank === 'CP';
      const answer = await authApi.register({
        ...values,
        apic: isCaptain ? true : values.apic,
        ltc: isCaptain ? values.ltc : false,
      });
      setConfirming(null);
      const email = answer.pilot.email || loginEmail(values.emailPrefix, domain);
      clear();
      if (answer.emailVerificationRequired) {
        toast.success('Registration Successful', 'Please enter the verification code sent to your email.');
        onVerificationRequired({ email, password: values.password });
      } else {
        onLoggedIn(await authApi.login(email, values.password));
      }
    } catch (error) {
      setConfirming(null);
      const title = error instanceof ApiError && error.title ? error.title : 'Registration Failed';
      toast.error(title, errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const restore = async () => {
    if (!deleted) return;
    setBusy(true);
    try {
      await authApi.restorePilot({
        employeeId: deleted.values.employeeId,
        updatedData: { password: deleted.values.password, emailVerified: false },
      });
      toast.success('Account Restored', 'Your previous account has been restored. Please log in with your new password.');
      const prefix = deleted.pilot.email.split('@')[0] ?? deleted.values.emailPrefix;
      setDeleted(null);
      clear();
      onRestored(prefix);
    } catch (error) {
      toast.error('Restore Failed', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Form
        form={form}
        name="register"
        layout="vertical"
        initialValues={REGISTRATION_DEFAULTS}
        onFinish={submit}
        onValuesChange={(changed: Partial<RegistrationValues>) => {
          // Choosing a rank sets APIC by default; only captains may be LTC trainers.
          if (changed.rank) form.setFieldsValue({ apic: true, ...(changed.rank === 'FO' ? { ltc: false } : {}) });
        }}
      >
        <Alert
          type="warning"
          showIcon
          className="form-alert"
          title="Do not use your company password"
          description={`Choose a password for ${productName} that is different from your company (VS) password.`}
        />
        <div className="form-grid">
          <Form.Item label="First Name" name="firstName" normalize={shapeNameTyping}>
            <Input autoComplete="given-name" onBlur={() => form.setFieldValue('firstName', shapeName(form.getFieldValue('firstName') ?? ''))} />
          </Form.Item>
          <Form.Item label="Last Name" name="lastName" normalize={shapeNameTyping}>
            <Input autoComplete="family-name" onBlur={() => form.setFieldValue('lastName', shapeName(form.getFieldValue('lastName') ?? ''))} />
          </Form.Item>
          <Form.Item label="Employee ID" name="employeeId" normalize={shapeEmployeeId}>
            <Input inputMode="numeric" placeholder="6 digits" />
          </Form.Item>
          <Form.Item label="Phone" name="phone" normalize={shapePhone}>
            <Input inputMode="tel" autoComplete="tel" />
          </Form.Item>
        </div>
        <Form.Item label="Email" name="emailPrefix" normalize={shapeEmailPrefix}>
          <Input
            autoCapitalize="none"
            placeholder="firstname.lastname"
            suffix={<span className="email-suffix">{domain ? `@${domain}` : '@'}</span>}
          />
        </Form.Item>
        <PilotRoleFields rank={rank} placeholders onLtcInfo={() => setInfo('ltc')} />
        <div className="inline-row">
          <span id="register-master-roster">Master Roster</span>
          <Form.Item name="usualReq" valuePropName="checked" noStyle>
            <Switch checkedChildren="ON" unCheckedChildren="OFF" aria-labelledby="register-master-roster" />
          </Form.Item>
          <Button type="link" onClick={() => setInfo('master')}>
            About Master Roster
          </Button>
        </div>
        <div className="form-grid">
          <Form.Item label="Password" name="password">
            <Input.Password autoComplete="new-password" iconRender={(visible) => <ShowHide visible={visible} />} />
          </Form.Item>
          <Form.Item label="Confirm Password" name="confirmPassword">
            <Input.Password autoComplete="new-password" iconRender={(visible) => <ShowHide visible={visible} />} />
          </Form.Item>
        </div>
        <div className="form-actions">
          <Button onClick={clear}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={busy}>
            Register Pilot
          </Button>
        </div>
      </Form>

      <AppModal
        open={confirming !== null}
        title="Confirm your ID and Email"
        onCancel={() => setConfirming(null)}
        onOk={() => confirming && register(confirming)}
        okText="Confirm"
        cancelText="Back"
        confirmLoading={busy}
      >
        {confirming && (
          <div className="stack">
            <p>Please check these are correct. Your verification code and any password reset are sent to this email address.</p>
            <dl className="details">
              <dt>Employee ID</dt>
              <dd>{confirming.employeeId}</dd>
              <dt>Email</dt>
              <dd>{loginEmail(confirming.emailPrefix, domain)}</dd>
            </dl>
          </div>
        )}
      </AppModal>

      <AppModal
        open={deleted !== null}
        title="Account Previously Deleted"
        onCancel={() => setDeleted(null)}
        footer={[
          <Button
            key="cancel"
            onClick={() => {
              setDeleted(null);
              clear();
            }}
          >
            Cancel Registration
          </Button>,
          <Button key="restore" type="primary" loading={busy} onClick={restore}>
            Restore Previous Account
          </Button>,
        ]}
      >
        {deleted && (
          <div className="stack">
            <p>
              An account with employee ID {deleted.pilot.employeeId} was deleted. Its details are kept for{' '}
              {deleted.pilot.daysRemaining} more days, and the ID cannot be registered again until then.
            </p>
            <dl className="details">
              <dt>Name</dt>
              <dd>
                {deleted.pilot.firstName} {deleted.pilot.lastName}
              </dd>
              <dt>Rank / Fleet</dt>
              <dd>
                {deleted.pilot.rank} {deleted.pilot.fleet}
              </dd>
              <dt>Email</dt>
              <dd>{deleted.pilot.email}</dd>
            </dl>
            <p>
              Restoring keeps the original rank, fleet and change restrictions; only the password changes to the one you
              entered. You will verify your email again.
            </p>
          </div>
        )}
      </AppModal>

      <AppModal
        open={info !== null}
        title={info === 'ltc' ? 'LTC (Trainer)' : 'Master Roster'}
        onCancel={() => setInfo(null)}
        footer={<Button onClick={() => setInfo(null)}>Close</Button>}
      >
        {info === 'ltc' ? <p>{LTC_INFO}</p> : <MasterRosterInfo />}
      </AppModal>
    </>
  );
}
