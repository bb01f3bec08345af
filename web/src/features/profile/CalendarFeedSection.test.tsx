import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import CalendarFeedSection, { feedAddresses } from './CalendarFeedSection';

afterEach(() => vi.unstubAllGlobals());

const FIRST = 'webcal://localhost:8080/api/calendar/AAAAAAAAAAAAAAAAAAAAAA.ics';
const SECOND = 'webcal://localhost:8080/api/calendar/BBBBBBBBBBBBBBBBBBBBBB.ics';

/** Confirms the open Popconfirm with its OK button. */
async function confirmWith(name: string) {
  const tooltip = await screen.findByRole('tooltip');
  fireEvent.click(within(tooltip).getByRole('button', { name }));
}

describe('Edit My Details: Calendar feed', () => {
  it('Turn On shows the private address with Copy and its QR code; Rotate shows the new one; Turn Off stops it', async () => {
    let made = 0;
    const { calls } = stubFetch((call) => {
      if (call.path !== '/api/calendar/feed') return undefined;
      if (call.method === 'GET') return { body: { enabled: false } };
      if (call.method === 'POST') return { body: { url: [FIRST, SECOND][made++] } };
      if (call.method === 'DELETE') return { status: 204 };
      return undefined;
    });
    renderWithApp(<CalendarFeedSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn On' }));
    expect(await screen.findByText(FIRST)).toBeInTheDocument();
    expect(screen.getByLabelText('QR code of your calendar feed address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^copy Copy$/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add to Apple Calendar' })).toHaveAttribute('href', FIRST);
    expect(screen.getByRole('link', { name: 'Add to Google Calendar' })).toHaveAttribute(
      'href',
      'https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Flocalhost%3A8080%2Fapi%2Fcalendar%2FAAAAAAAAAAAAAAAAAAAAAA.ics',
    );
    // jsdom's page is http://localhost: the twin is the page's own scheme.
    expect(screen.getByText('http://localhost:8080/api/calendar/AAAAAAAAAAAAAAAAAAAAAA.ics')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Copy https Address/ })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Rotate' }));
    await confirmWith('Rotate');
    expect(await screen.findByText(SECOND)).toBeInTheDocument();
    expect(screen.queryByText(FIRST)).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Turn Off' }));
    await confirmWith('Turn Off');
    expect(await screen.findByRole('button', { name: 'Turn On' })).toBeInTheDocument();
    expect(screen.queryByText(SECOND)).not.toBeInTheDocument();
    await waitFor(() => expect(calls.map((call) => call.method)).toEqual(['GET', 'POST', 'POST', 'DELETE']));
  });

  it('offers an https:// address beside webcal:// on an https page, and Google Calendar the webcal address', () => {
    expect(feedAddresses(FIRST, 'https:')).toEqual({
      webcal: FIRST,
      https: 'https://localhost:8080/api/calendar/AAAAAAAAAAAAAAAAAAAAAA.ics',
      google: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(FIRST)}`,
    });
  });

  it('a feed that is on, when the dialog opens again, says its address is shown only when made', async () => {
    stubFetch((call) => (call.path === '/api/calendar/feed' ? { body: { enabled: true } } : undefined));
    renderWithApp(<CalendarFeedSection />);
    expect(await screen.findByText(/Your calendar feed is on\. Its address is shown only when it is made/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rotate' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn Off' })).toBeInTheDocument();
  });
});
