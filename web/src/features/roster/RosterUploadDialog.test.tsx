import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import { rosterFileProblem, uploadName } from '../../api/roster';
import RosterUploadDialog from './RosterUploadDialog';

afterEach(() => vi.unstubAllGlobals());

const settings = (path: string) =>
  path === '/api/settings/upload_email' ? { body: { value: 'roster@crewswap.test' } } : path === '/api/settings/interbids_url' ? { body: { value: 'https://interbids.example' } } : undefined;

describe('Roster upload dialog', () => {
  it('shows the instructions with the upload email address and the Interbids guide', async () => {
    stubFetch((call) => (call.path === '/api/pilot/current' ? { body: { id: 'x' } } : settings(call.path)));
    renderWithApp(<RosterUploadDialog onClose={() => {}} />);
    expect(await screen.findByText('roster@crewswap.test')).toBeInTheDocument();
    expect(screen.getByText(/Only trips and standby duties are uploaded/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'How To' }));
    expect(await screen.findByText('Click the Report tab.')).toBeInTheDocument();
  });

  it("a file that is not a calendar: 'Upload failed', the spec's message and 'Please correct the issue and try again.'", async () => {
    stubFetch((call) => settings(call.path));
    renderWithApp(<RosterUploadDialog onClose={() => {}} />);
    const file = new File(['hello'], 'roster.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText('Roster file'), { target: { files: [file] } });
    expect(await screen.findByText('Only calendar files with .ics, .ics_, or .cal extensions are supported')).toBeInTheDocument();
    expect(screen.getAllByText('Upload failed').length).toBeGreaterThan(0);
    expect(screen.getByText('Please correct the issue and try again.')).toBeInTheDocument();
  });

  it('shows the pilot\'s private upload address, copyable, and replaces it on request', async () => {
    let address = 'roster+aaaa1111bbbb2222cccc@crewswap.test';
    const { calls } = stubFetch((call) => {
      if (call.path === '/api/roster/upload-address') {
        if (call.method === 'POST') address = 'roster+dddd3333eeee4444ffff@crewswap.test';
        return { body: { address } };
      }
      return settings(call.path);
    });
    renderWithApp(<RosterUploadDialog onClose={() => {}} />);
    expect(await screen.findByText('roster+aaaa1111bbbb2222cccc@crewswap.test')).toBeInTheDocument();
    expect(screen.getByText(/from any email account to your private upload address/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /copy/i }).length).toBeGreaterThanOrEqual(2);
    fireEvent.click(screen.getByRole('button', { name: 'New address' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Replace' }));
    expect(await screen.findByText('roster+dddd3333eeee4444ffff@crewswap.test')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/roster/upload-address').map((call) => call.method)).toEqual(['GET', 'POST']);
  });

  it('checks size and extension before sending, and sends .ics_ as .ics', () => {
    expect(rosterFileProblem({ name: 'r.ics', size: 10 * 1024 * 1024 + 1 })).toBe('File size must be less than 10MB');
    expect(rosterFileProblem({ name: 'roster.ICS_', size: 10 })).toBeNull();
    expect(rosterFileProblem({ name: 'roster.cal', size: 10 })).toBeNull();
    expect(uploadName('roster.ics_')).toBe('roster.ics');
  });

});
