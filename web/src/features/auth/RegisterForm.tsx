import { Alert, Button, Form, Input, Switch } from 'antd';
import { useState } from 'react';
import { shapeEmailPrefix, shapePhone } from '@crewswap/proto/browser';
import type { LoginResponse } from '@crewswap/proto';
import { useCheckDeletedPilot, useProductName, type PendingVerification, type Registered } from '../../api/auth';
import { RoleInfoDialog, type RoleInfo } from '../../shared/infoTexts';
import { PasswordInput } from '../../shared/PasswordInput';
import { PilotRoleFields } from '../../shared/PilotRoleFields';
import { shapeName, shapeNameTyping } from '../../shared/shaping';
import { toast } from '../../shared/toast';
import { ConfirmRegistrationDialog } from './ConfirmRegistrationDialog';
import { EmailDomain } from './EmailDomain';
import { checkRegistration, REGISTRATION_DEFAULTS, shapeEmployeeId, type RegistrationValues } from './registration';
import { RestoreAccountDialog, type DeletedAccount } from './RestoreAccountDialog';

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
  const [deleted, setDeleted] = useState<DeletedAccount | null>(null);
  const [info, setInfo] = useState<RoleInfo | null>(null);
  const checkDeletedPilot = useCheckDeletedPilot();

  const clear = () => form.setFieldsValue(REGISTRATION_DEFAULTS);

  const submit = () => {
    const values = { ...REGISTRATION_DEFAULTS, ...form.getFieldsValue(true) } as RegistrationValues;
    values.firstName = shapeName(values.firstName);
    values.lastName = shapeName(values.lastName);
    const problem = checkRegistration(values);
    if (problem) {
      toast.error(problem.title, problem.message);
      return;
    }
    checkDeletedPilot.mutate(values.employeeId, {
      onSuccess: (lookup) => (lookup.exists && lookup.pilot ? setDeleted({ pilot: lookup.pilot, values }) : setConfirming(values)),
      // The spec: if the lookup fails the confirm dialog is shown anyway.
      onError: () => setConfirming(values),
    });
  };

  const registered = (answer: Registered) => {
    clear();
    if ('verification' in answer) {
      toast.success('Registration Successful', 'Please enter the verification code sent to your email.');
      onVerificationRequired(answer.verification);
    } else {
      onLoggedIn(answer.loggedIn);
    }
  };

  const restored = (emailPrefix: string) => {
    setDeleted(null);
    clear();
    onRestored(emailPrefix);
  };

  const cancelRegistration = () => {
    setDeleted(null);
    clear();
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
            suffix={<EmailDomain />}
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
            <PasswordInput autoComplete="new-password" />
          </Form.Item>
          <Form.Item label="Confirm Password" name="confirmPassword">
            <PasswordInput autoComplete="new-password" />
          </Form.Item>
        </div>
        <div className="form-actions">
          <Button onClick={clear}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={checkDeletedPilot.isPending}>
            Register Pilot
          </Button>
        </div>
      </Form>

      {confirming && (
        <ConfirmRegistrationDialog values={confirming} domain={domain} onClose={() => setConfirming(null)} onRegistered={registered} />
      )}
      {deleted && (
        <RestoreAccountDialog
          account={deleted}
          onClose={() => setDeleted(null)}
          onCancelRegistration={cancelRegistration}
          onRestored={restored}
        />
      )}
      <RoleInfoDialog info={info} onClose={() => setInfo(null)} />
    </>
  );
}
