import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import VerificationDialog from './VerificationDialog';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('VS Pilot Verification dialog', () => {
  it('a resend refused as too soon shows the wait, keeps Resend off, and turns it back on when the wait ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = stubFetch((call) =>
      call.path === '/api/auth/resend-verification'
        ? {
            status: 429,
            body: {
              error: 'A verification code was sent less than a minute ago. Please wait 3 seconds before asking for another.',
              title: 'Please Wait',
              retryAfterSeconds: 3,
            },
          }
        : undefined,
    );
    renderWithApp(<VerificationDialog pending={{ email: 'amy.stone@fly.virgin.com' }} onClose={() => undefined} onVerified={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Resend Code' }));

    expect(await screen.findByText('A new code can be sent in 3 seconds.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Code (3s)' })).toBeDisabled();
    expect(calls.filter((call) => call.path === '/api/auth/resend-verification')).toHaveLength(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_000);
    });
    expect(screen.getByRole('button', { name: 'Resend Code' })).toBeEnabled();
    expect(screen.queryByText(/A new code can be sent/)).not.toBeInTheDocument();
  });
});
