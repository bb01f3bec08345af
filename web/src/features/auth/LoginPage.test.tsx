import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import { storePendingRoster, takePendingRoster } from '../roster/pendingRoster';
import { LoginPage } from './LoginPage';

afterEach(() => vi.unstubAllGlobals());

const config = { body: { companyEmailDomain: 'fly.virgin.com', productName: 'CrewSwap' } };

describe('login page', () => {
  it('shows the Session Expired banner from the stored flag', async () => {
    sessionStorage.setItem('showSessionExpired', 'true');
    stubFetch((call) => (call.path === '/api/auth/config' ? config : undefined));
    renderWithApp(<LoginPage />);
    expect(await screen.findByText('Session Expired')).toBeInTheDocument();
  });

  it('the banner survives a render React throws away (the login page renders in the background) and its flag is then cleared', async () => {
    sessionStorage.setItem('showAdminShutdown', 'true');
    stubFetch((call) => (call.path === '/api/auth/config' ? config : undefined));
    // A sibling that suspends once makes React throw the first render of the page away and render it again.
    let ready = false;
    const later = new Promise<void>((resolve) =>
      setTimeout(() => {
        ready = true;
        resolve();
      }, 50),
    );
    function SuspendsOnce() {
      if (!ready) throw later;
      return null;
    }
    renderWithApp(
      <Suspense fallback={null}>
        <LoginPage />
        <SuspendsOnce />
      </Suspense>,
    );
    expect(await screen.findByText('System Temporarily Unavailable')).toBeInTheDocument();
    await waitFor(() => expect(sessionStorage.getItem('showAdminShutdown')).toBeNull());
  });

  it('a roster file opened with the app before logging in is named, with what to do: log in to upload it', async () => {
    await storePendingRoster(new File(['BEGIN:VCALENDAR'], 'roster.vcs'));
    stubFetch((call) => (call.path === '/api/auth/config' ? config : undefined));
    renderWithApp(<LoginPage />);
    expect(await screen.findByText('Log in to upload roster.vcs.')).toBeInTheDocument();
    takePendingRoster();
  });

  it('shows the company domain from the server beside the email prefix', async () => {
    stubFetch((call) => (call.path === '/api/auth/config' ? config : undefined));
    renderWithApp(<LoginPage />);
    expect(await screen.findByText('@fly.virgin.com')).toBeInTheDocument();
  });

  it('a failed login says which attempt of 5 it was', async () => {
    const { calls } = stubFetch((call) => {
      if (call.path === '/api/auth/config') return config;
      if (call.path === '/api/auth/login') return { status: 401, body: { error: 'Invalid email or password.', remainingAttempts: 3 } };
      return undefined;
    });
    renderWithApp(<LoginPage />);
    await screen.findByText('@fly.virgin.com');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'Erin Tester' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Failed login attempt 2 of 5')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/auth/login')?.body).toEqual({ email: 'ErinTester@fly.virgin.com', password: 'wrong' });
  });

  it('Login pressed before the company domain is known waits for it, and sends the full email', async () => {
    let answerConfig: () => void = () => {};
    const configAnswered = new Promise<void>((resolve) => (answerConfig = resolve));
    const { calls, fetchMock } = stubFetch((call) => {
      if (call.path === '/api/auth/login') return { status: 401, body: { error: 'Invalid email or password.', remainingAttempts: 4 } };
      return undefined;
    });
    // Auth's config answers only when the test says so: a slow network on the login page.
    const answerNow = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/auth/config') {
        await configAnswered;
        return new Response(JSON.stringify(config.body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      return answerNow(input, init);
    });
    renderWithApp(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'erin.tester' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((c) => c.path === '/api/auth/login')).toBe(false);
    answerConfig();
    await waitFor(() => expect(calls.find((c) => c.path === '/api/auth/login')?.body).toEqual({ email: 'erin.tester@fly.virgin.com', password: 'wrong' }));
  });

  it('Forgot Password without an email asks for it first', async () => {
    stubFetch((call) => (call.path === '/api/auth/config' ? config : undefined));
    renderWithApp(<LoginPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Forgot Password' }));
    expect(await screen.findByText('Please enter your email address first.')).toBeInTheDocument();
  });

  it('registration refuses a phone starting with +0 before anything else', async () => {
    const { calls } = stubFetch((call) => (call.path === '/api/auth/config' ? config : undefined));
    renderWithApp(<LoginPage />);
    fireEvent.click(screen.getByRole('tab', { name: 'Register' }));
    const phone = await screen.findByLabelText('Phone');
    expect(phone).toHaveValue('+44');
    fireEvent.change(phone, { target: { value: '+0 7700' } });
    expect(phone).toHaveValue('+07700');
    fireEvent.click(screen.getByRole('button', { name: 'Register Pilot' }));
    expect(await screen.findByText('Invalid Phone Number')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(false));
  });

  it('the Testing button appears only while testing_button_enabled is true', async () => {
    stubFetch((call) => {
      if (call.path === '/api/auth/config') return config;
      if (call.path === '/api/settings/testing_button_enabled') return { body: { value: 'true' } };
      return undefined;
    });
    renderWithApp(<LoginPage />);
    expect(await screen.findByRole('button', { name: 'Testing' })).toBeInTheDocument();
  });
});
