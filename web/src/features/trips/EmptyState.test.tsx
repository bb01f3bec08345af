import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import { EmptyState } from './EmptyState';

afterEach(() => vi.unstubAllGlobals());

describe('Empty state (no trips)', () => {
  it('names the company upload address and the pilot\'s own private one, copyable', async () => {
    stubFetch((call) =>
      call.path === '/api/settings/upload_email'
        ? { body: { value: 'roster@crewswap.test' } }
        : call.path === '/api/roster/upload-address'
          ? { body: { address: 'roster+aaaa1111bbbb2222cccc@crewswap.test' } }
          : undefined,
    );
    renderWithApp(<EmptyState onAddTrip={() => {}} onUploadRoster={() => {}} onNotifications={() => {}} />);
    expect(await screen.findByText('roster@crewswap.test')).toBeInTheDocument();
    expect(await screen.findByText('roster+aaaa1111bbbb2222cccc@crewswap.test')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /copy/i })).toBeInTheDocument();
  });
});
