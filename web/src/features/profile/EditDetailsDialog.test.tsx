import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PILOT, renderWithApp, stubFetch } from '../../../test/render';
import EditDetailsDialog from './EditDetailsDialog';

afterEach(() => vi.unstubAllGlobals());

describe('Edit My Details', () => {
  it("sets the pilot's own Find Swaps range (searchDayRange), which overrides the system's", async () => {
    const { calls } = stubFetch((call) => {
      if (call.method === 'PATCH') return { body: { ...PILOT, searchDayRange: 2 } };
      if (call.path === '/api/settings/swap_search_days') return { body: { value: '4' } };
      return undefined;
    });
    renderWithApp(<EditDetailsDialog pilot={PILOT} onClose={() => {}} />);
    const range = screen.getByLabelText('Find Swaps range (days)');
    expect(await screen.findByText(/leave empty for the default \(4\)/)).toBeInTheDocument();
    fireEvent.change(range, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')).toEqual({ method: 'PATCH', path: `/api/pilots/${PILOT.id}`, body: { searchDayRange: 2 } }));
  });

  it("has the Roster address section (issue 56): the 'Roster address' field and its Save", async () => {
    stubFetch((call) => (call.path === '/api/settings/swap_search_days' ? { body: { value: '4' } } : undefined));
    renderWithApp(<EditDetailsDialog pilot={PILOT} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Edit My Details' });
    expect(await within(dialog).findByRole('textbox', { name: 'Roster address' })).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Roster address' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });
});
