import { fireEvent, screen, waitFor } from '@testing-library/react';
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
});
