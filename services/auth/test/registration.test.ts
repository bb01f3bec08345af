import { PHONE_PLUS_ZERO_MESSAGE, SUBJECTS } from '@crewswap/proto';
import { DOMAIN, startAuth, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.close());

async function refusal(overrides: Parameters<Harness['register']>[0]) {
  const response = await h.register(overrides);
  return { status: response.statusCode, ...(response.json() as { error: string; title?: string }) };
}

describe('Registration checks, in the spec order', () => {
  it('(1) phone cannot start with +0: Invalid Phone Number', async () => {
    expect(await refusal({ phone: '+0 7700 900000' })).toMatchObject({ status: 400, title: 'Invalid Phone Number', error: PHONE_PLUS_ZERO_MESSAGE });
  });

  it('(2) employee ID must be exactly 6 digits', async () => {
    for (const employeeId of ['12345', '1234567', '12a456', '']) {
      expect(await refusal({ employeeId })).toMatchObject({ status: 400, title: 'Invalid Employee ID', error: 'Employee ID must be exactly 6 digits.' });
    }
  });

  it('(3) password at least 6 characters', async () => {
    expect(await refusal({ password: '12345', confirmPassword: '12345' })).toMatchObject({
      status: 400,
      title: 'Password Too Short',
      error: 'Password must be at least 6 characters long.',
    });
  });

  it('(4) passwords must match', async () => {
    expect(await refusal({ confirmPassword: 'secret2' })).toMatchObject({ status: 400, title: 'Password Mismatch', error: 'Passwords do not match.' });
  });

  it('(5) a captain without APIC is refused', async () => {
    expect(await refusal({ rank: 'CP', apic: false })).toMatchObject({
      status: 400,
      title: 'APIC Required',
      error: 'Captains must have APIC (Approved Pilot in Command) certification.',
    });
  });

  it('(6) all required fields', async () => {
    const missing = [{ firstName: '' }, { lastName: '  ' }, { firstName: '123' }, { emailPrefix: '' }, { phone: '' }, { phone: '+' }, { rank: undefined }, { fleet: undefined }, { base: undefined }];
    for (const overrides of missing) {
      expect(await refusal(overrides)).toMatchObject({ status: 400, title: 'Missing Information', error: 'Please fill in all required fields.' });
    }
  });

  it('(7) email prefix cannot contain spaces', async () => {
    expect(await refusal({ emailPrefix: 'amy stone' })).toMatchObject({ status: 400, title: 'Invalid Email Format', error: 'Email prefix cannot contain spaces.' });
  });

  it('checks run in the spec order: the first failing check answers', async () => {
    const everythingWrong = { phone: '+01', employeeId: '1', password: '1', confirmPassword: '2', rank: 'CP' as const, apic: false, firstName: '', emailPrefix: 'a b' };
    expect((await refusal(everythingWrong)).title).toBe('Invalid Phone Number');
    expect((await refusal({ ...everythingWrong, phone: '+44' })).title).toBe('Invalid Employee ID');
    expect((await refusal({ ...everythingWrong, phone: '+44', employeeId: '654321' })).title).toBe('Password Too Short');
    expect((await refusal({ ...everythingWrong, phone: '+44', employeeId: '654321', password: '123456' })).title).toBe('Password Mismatch');
    const fourOk = { ...everythingWrong, phone: '+44', employeeId: '654321', password: '123456', confirmPassword: '123456' };
    expect((await refusal(fourOk)).title).toBe('APIC Required');
    expect((await refusal({ ...fourOk, apic: true })).title).toBe('Missing Information');
    expect((await refusal({ ...fourOk, apic: true, firstName: 'Amy' })).title).toBe('Invalid Email Format');
  });

  it('refuses an email prefix that would not make an email address', async () => {
    expect(await refusal({ emailPrefix: 'amy!stone' })).toMatchObject({ status: 400, title: 'Invalid Email Format' });
  });
});

describe("Registration with the full email ('all registration fields plus email')", () => {
  it('accepts the full company address together with a matching email prefix', async () => {
    const response = await h.register({ emailPrefix: 'both.agree', email: `Both.Agree@${DOMAIN.toUpperCase()}` });
    expect(response.statusCode).toBe(201);
    expect(response.json().pilot.email).toBe(`both.agree@${DOMAIN}`);
  });

  it('accepts the full company address instead of the email prefix', async () => {
    const { emailPrefix: _prefix, ...withoutPrefix } = h.registration({ email: ` only.email@${DOMAIN} ` });
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/register', payload: withoutPrefix });
    expect(response.statusCode).toBe(201);
    expect(response.json().pilot.email).toBe(`only.email@${DOMAIN}`);
  });

  it('refuses an address outside the company domain: Invalid Email Format', async () => {
    for (const email of ['amy.stone@gmail.com', `amy.stone@${DOMAIN}.evil.com`, 'amy.stone']) {
      expect(await refusal({ email })).toMatchObject({
        status: 400,
        title: 'Invalid Email Format',
        error: `Please register with your company email address, ending @${DOMAIN}.`,
      });
    }
  });

  it('refuses an address whose name does not agree with the email prefix: Invalid Email Format', async () => {
    expect(await refusal({ emailPrefix: 'amy.stone', email: `someone.else@${DOMAIN}` })).toMatchObject({
      status: 400,
      title: 'Invalid Email Format',
      error: 'The email address and the email prefix do not match.',
    });
  });

  it('an address with spaces before the domain is refused as the prefix would be', async () => {
    const { emailPrefix: _prefix, ...withoutPrefix } = h.registration({ email: `amy stone@${DOMAIN}` });
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/register', payload: withoutPrefix });
    expect([response.statusCode, response.json().error]).toEqual([400, 'Email prefix cannot contain spaces.']);
  });

  it('still refuses a field no screen or API row names', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...h.registration(), isAdmin: true } });
    expect([response.statusCode, response.json().error]).toEqual([400, 'Unknown field(s): isAdmin']);
  });
});

describe('Registration shaping and flags', () => {
  it('shapes names, phone and email prefix; email is prefix @ company domain', async () => {
    const response = await h.register({ firstName: "  mary-jane o'neil3 ", lastName: 'SMITH  jones', phone: '+44 (0)7700-900 123', emailPrefix: 'Mary.Jane@', employeeId: '700001' });
    expect(response.statusCode).toBe(201);
    const { pilot, emailVerificationRequired } = response.json();
    expect(pilot).toMatchObject({ firstName: 'Mary-Jane Oneil', lastName: 'Smith Jones', phone: '+4407700900123', email: `mary.jane@${DOMAIN}` });
    expect(emailVerificationRequired).toBe(false);
    expect(pilot.emailVerified).toBe(true);
    expect(pilot).not.toHaveProperty('passwordHash');
  });

  it('a captain is always APIC and may be LTC; testData is false for self-registered pilots', async () => {
    const { pilot } = (await h.register({ rank: 'CP', apic: true, ltc: true })).json();
    expect(pilot).toMatchObject({ rank: 'CP', apic: true, ltc: true, testData: false, usualReq: true });
  });

  it('only a captain may be LTC; an FO may set APIC', async () => {
    const fo = (await h.register({ rank: 'FO', apic: false, ltc: true })).json().pilot;
    expect(fo).toMatchObject({ rank: 'FO', apic: false, ltc: false });
    const foApic = (await h.register({ rank: 'FO', apic: true })).json().pilot;
    expect(foApic.apic).toBe(true);
  });

  it('publishes auth.pilot.registered with the whole profile', async () => {
    const pilot = await h.createPilot();
    const events = await h.events(SUBJECTS.pilotRegistered);
    const { password: _password, ...profile } = pilot;
    expect(events.map((event) => event.data.pilot)).toContainEqual(profile);
  });
});

describe('Registration duplicates', () => {
  it('a duplicate employee ID or email is 409', async () => {
    const first = await h.createPilot({ employeeId: '710001', emailPrefix: 'dup.one' });
    const sameId = await h.register({ employeeId: first.employeeId, emailPrefix: 'dup.two' });
    expect(sameId.statusCode).toBe(409);
    expect(sameId.json()).toMatchObject({ title: 'Registration Failed', error: 'A pilot with this employee ID is already registered.' });
    const sameEmail = await h.register({ employeeId: '710002', emailPrefix: 'DUP.ONE' });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().error).toBe('A pilot with this email address is already registered.');
  });

  it('the employee ID of a pilot deleted less than 30 days ago cannot be reused; after 30 days it can', async () => {
    const { pilot, cookies } = await h.signedIn({ employeeId: '720001', emailPrefix: 'gone.soon' });
    expect((await h.app.inject({ method: 'DELETE', url: `/api/pilots/${pilot.id}`, cookies })).statusCode).toBe(200);
    const again = await h.register({ employeeId: '720001', emailPrefix: 'back.again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ title: 'Registration Failed', previouslyDeleted: true });
    expect(again.json().error).toMatch(/restore/i);
    h.clock.advance(29 * 86_400_000);
    expect((await h.register({ employeeId: '720001', emailPrefix: 'back.again' })).statusCode).toBe(409);
    h.clock.advance(86_400_000);
    expect((await h.register({ employeeId: '720001', emailPrefix: 'back.again' })).statusCode).toBe(201);
  });
});

describe('Registration with email verification on', () => {
  it('the pilot is unverified and a verification code of 6+ characters is mailed', async () => {
    h.settings.email_verification_enabled = 'true';
    try {
      const response = await h.register({ emailPrefix: 'needs.code' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ emailVerificationRequired: true, pilot: { emailVerified: false } });
      const code = await h.verificationCode(`needs.code@${DOMAIN}`);
      expect(code.length).toBeGreaterThanOrEqual(6);
      // A plain and an HTML body, both naming the product.
      const [mail] = await h.mails(`needs.code@${DOMAIN}`);
      expect(mail!.text).toContain('CrewSwap');
      expect(mail!.html).toContain('<h1 style="font-size: 20px; margin: 0 0 16px;">CrewSwap</h1>');
      expect(mail!.html).toContain(`Your verification code is ${code}`);
    } finally {
      h.settings.email_verification_enabled = 'false';
    }
  });
});

describe('The login page configuration', () => {
  it('tells the browser the company email domain and product name, so neither is written into the app', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ companyEmailDomain: DOMAIN, productName: 'CrewSwap' });
  });
});
