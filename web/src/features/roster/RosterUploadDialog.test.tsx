import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RosterUploadResult } from '@crewswap/proto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import { queryKeys } from '../../api/keys';
import { rosterFileProblem, uploadName } from '../../api/roster';
import RosterUploadDialog from './RosterUploadDialog';
import { resultSummary } from './RosterUploadResultView';

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

  it("has the Roster address section (issue 56): the 'Roster address' field beside the upload instructions", async () => {
    stubFetch((call) => settings(call.path));
    renderWithApp(<RosterUploadDialog onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Upload Roster' });
    expect(await within(dialog).findByRole('textbox', { name: 'Roster address' })).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Roster address' })).toBeInTheDocument();
  });

  it('checks size and extension before sending, and sends .ics_ as .ics', () => {
    expect(rosterFileProblem({ name: 'r.ics', size: 10 * 1024 * 1024 + 1 })).toBe('File size must be less than 10MB');
    expect(rosterFileProblem({ name: 'roster.ICS_', size: 10 })).toBeNull();
    expect(rosterFileProblem({ name: 'roster.cal', size: 10 })).toBeNull();
    expect(uploadName('roster.ics_')).toBe('roster.ics');
  });

  it('the result shows the trips skipped as too old, with the reason, and /api/stats is refreshed after the upload', async () => {
    const answer: RosterUploadResult = {
      processedCount: 2,
      duplicateCount: 0,
      conflictCount: 0,
      conflicts: [],
      skippedCount: 1,
      skipped: [{ trip: 'VS001/VS002 (01/03/2026 to 01/05/2026)', reason: 'Trip ended more than 7 days ago' }],
      message: '2 trips added',
      addedCount: 2,
      changedCount: 0,
      removedCount: 0,
      changes: [],
    };
    vi.stubGlobal('XMLHttpRequest', answeringXhr(200, answer));
    const { calls } = stubFetch((call) => {
      if (call.path === '/api/pilot/current') return { body: { id: 'x' } };
      if (call.path === '/api/stats') return { body: {} };
      return settings(call.path);
    });
    const { queryClient } = renderWithApp(<RosterUploadDialog onClose={() => {}} />);
    queryClient.setQueryData(queryKeys.stats, {});
    const file = new File(['BEGIN:VCALENDAR'], 'roster.ics', { type: 'text/calendar' });
    fireEvent.change(screen.getByLabelText('Roster file'), { target: { files: [file] } });
    expect(await screen.findByText('2 added, 1 skipped')).toBeInTheDocument();
    expect(screen.getByText('VS001/VS002 (01/03/2026 to 01/05/2026): Trip ended more than 7 days ago')).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.stats)?.isInvalidated).toBe(true));
    expect(calls.some((call) => call.path === '/api/pilot/current')).toBe(true);
  });
});

describe('the upload result summary', () => {
  const result = (counts: Partial<RosterUploadResult>): RosterUploadResult => ({
    processedCount: 0,
    duplicateCount: 0,
    conflictCount: 0,
    conflicts: [],
    skippedCount: 0,
    skipped: [],
    message: '',
    addedCount: 0,
    changedCount: 0,
    removedCount: 0,
    changes: [],
    ...counts,
  });

  it("says how many were skipped beside how many were added: '12 added, 2 skipped'", () => {
    expect(resultSummary(result({ processedCount: 12, addedCount: 12, skippedCount: 2 }))).toBe('12 added, 2 skipped');
    expect(resultSummary(result({ processedCount: 1, addedCount: 1, changedCount: 1, removedCount: 1, skippedCount: 2 }))).toBe('1 added, 1 changed, 1 removed, 2 skipped');
    expect(resultSummary(result({ processedCount: 9, addedCount: 9 }))).toBe('9 trips added');
    expect(resultSummary(result({ processedCount: 1, addedCount: 1 }))).toBe('1 trip added');
  });
});

describe('a roster that changes an earlier one', () => {
  it("shows '1 added, 1 changed, 1 removed' and each trip's before and after, and remembers the changed trip for the trips page", async () => {
    const trip = (flightNoStart: string, flightNoEnd: string, route: string, startDate: string, endDate: string) => ({ flightNoStart, flightNoEnd, route, startDate, endDate, aircraft: 'B787' as const, icsDescription: null });
    const changedId = '0b1b255d-e5df-4f1e-93cc-92a59b076d04';
    const answer: RosterUploadResult = {
      processedCount: 1,
      duplicateCount: 5,
      conflictCount: 0,
      conflicts: [],
      skippedCount: 0,
      skipped: [],
      message: '1 added, 1 changed, 1 removed, 5 duplicates skipped',
      addedCount: 1,
      changedCount: 1,
      removedCount: 1,
      changes: [
        { kind: 'removed', tripId: '1b1b255d-e5df-4f1e-93cc-92a59b076d04', before: trip('VS411', 'VS412', 'LOS', '2026-12-15', '2026-12-17') },
        { kind: 'changed', tripId: changedId, before: trip('VS007', 'VS008', 'LAX', '2027-01-08', '2027-01-11'), after: trip('VS023', 'VS024', 'LAX', '2027-01-08', '2027-01-11') },
        { kind: 'added', tripId: '2b1b255d-e5df-4f1e-93cc-92a59b076d04', after: trip('VS025', 'VS026', 'JFK', '2027-01-26', '2027-01-28') },
      ],
    };
    vi.stubGlobal('XMLHttpRequest', answeringXhr(200, answer));
    stubFetch((call) => (call.path === '/api/pilot/current' ? { body: { id: 'x' } } : call.path === '/api/stats' ? { body: {} } : settings(call.path)));
    renderWithApp(<RosterUploadDialog onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Roster file'), { target: { files: [new File(['BEGIN:VCALENDAR'], 'roster.ics', { type: 'text/calendar' })] } });
    expect(await screen.findByText('1 added, 1 changed, 1 removed')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Roster changes' });
    const items = [...list.querySelectorAll('li')].map((item) => item.textContent);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(/^Removed: VS411\/VS412 LOS \(B787\), /);
    expect(items[1]).toMatch(/^Changed: VS007\/VS008 LAX \(B787\), .+ VS023\/VS024 LAX \(B787\), /);
    expect(items[2]).toMatch(/^Added: VS025\/VS026 JFK \(B787\), /);
    expect(JSON.parse(localStorage.getItem('crewswap.changed-trips') ?? '[]')).toEqual([changedId]);
  });
});

describe('a file opened with the app', () => {
  it.each(['roster.ical', 'roster.IFB', 'roster.icalendar', 'roster.vcs'])('%s is uploaded (as .ics) and reaches the server, whose answer is shown', async (name) => {
    const sent: FormData[] = [];
    vi.stubGlobal('XMLHttpRequest', answeringXhr(400, { error: 'This file is not a calendar file. Please send the .ics calendar file exported from your roster.' }, sent));
    stubFetch((call) => (call.path === '/api/pilot/current' ? { body: { id: 'x' } } : settings(call.path)));
    renderWithApp(<RosterUploadDialog file={new File(['BEGIN:VCALENDAR'], name)} onClose={() => {}} />);
    expect(await screen.findByText('This file is not a calendar file. Please send the .ics calendar file exported from your roster.')).toBeInTheDocument();
    expect((sent[0]!.get('roster') as File).name).toBe('roster.ics');
  });

  it("a file chosen in the dialog still needs .ics or .cal: 'Only calendar files with .ics, .ics_, or .cal extensions are supported'", async () => {
    stubFetch((call) => settings(call.path));
    renderWithApp(<RosterUploadDialog onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Roster file'), { target: { files: [new File(['x'], 'roster.vcs')] } });
    expect(await screen.findByText('Only calendar files with .ics, .ics_, or .cal extensions are supported')).toBeInTheDocument();
  });
});

/** An XMLHttpRequest that answers every upload with `status` and `body`; `sent` holds the forms sent. */
function answeringXhr(status: number, body: unknown, sent: FormData[] = []) {
  return class {
    status = 0;
    responseText = '';
    withCredentials = false;
    upload: { onprogress: unknown; onload: (() => void) | null } = { onprogress: null, onload: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send(form: FormData) {
      sent.push(form);
      setTimeout(() => {
        this.upload.onload?.();
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      }, 0);
    }
  };
}
