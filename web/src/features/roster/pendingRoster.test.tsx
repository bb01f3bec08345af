import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  handOffRosterFile,
  isOpenableRosterFile,
  PENDING_RETRY_MS,
  PENDING_ROSTER_KEY,
  PENDING_TRIES,
  ROSTER_FILE_READY,
  storePendingRoster,
  takePendingRoster,
  usePendingRosterFile,
} from './pendingRoster';

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
const rosterFile = (name = 'roster.ics') => new File([ICS], name, { type: 'text/calendar', lastModified: 1_700_000_000_000 });

const textOf = (file: File) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(file);
  });

function PilotScreen({ onFile }: { onFile: (file: File) => void }) {
  usePendingRosterFile(onFile);
  return null;
}

/** The stored form of a file, made with real timers (jsdom's FileReader runs on them). */
async function storedForm(): Promise<string> {
  await storePendingRoster(rosterFile());
  const raw = sessionStorage.getItem(PENDING_ROSTER_KEY)!;
  takePendingRoster();
  return raw;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('opened or shared roster files', () => {
  it('accepts the spec\'s calendar extensions only', () => {
    for (const name of ['a.ics', 'b.ICS_', 'c.cal', 'd.ical', 'e.ifb', 'f.icalendar', 'g.vcs']) expect(isOpenableRosterFile(name)).toBe(true);
    expect(isOpenableRosterFile('roster.pdf')).toBe(false);
  });

  it('a pending file is held in session storage with its name, size, type, time and bytes, and taken once', async () => {
    await storePendingRoster(rosterFile());
    const stored = JSON.parse(sessionStorage.getItem(PENDING_ROSTER_KEY)!);
    expect(stored).toMatchObject({ name: 'roster.ics', size: ICS.length, type: 'text/calendar', lastModified: 1_700_000_000_000 });
    expect(atob(stored.bytes)).toBe(ICS);
    const taken = takePendingRoster()!;
    expect([taken.name, taken.type, taken.lastModified, await textOf(taken)]).toEqual(['roster.ics', 'text/calendar', 1_700_000_000_000, ICS]);
    expect(takePendingRoster()).toBeNull();
  });

  it("on the pilot screen's paths it announces 'roster-file-ready'; anywhere else it goes to /", async () => {
    const announced = vi.fn();
    window.addEventListener(ROSTER_FILE_READY, announced);
    const navigate = vi.fn();
    for (const path of ['/', '/upload-roster', '/share-roster']) await handOffRosterFile(rosterFile(), path, navigate);
    expect([announced.mock.calls.length, navigate.mock.calls.length]).toEqual([3, 0]);
    await handOffRosterFile(rosterFile(), '/admin', navigate);
    expect(navigate).toHaveBeenCalledWith('/');
    expect(announced).toHaveBeenCalledTimes(3);
    window.removeEventListener(ROSTER_FILE_READY, announced);
  });

  it('a file of another kind is only logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const navigate = vi.fn();
    await handOffRosterFile(rosterFile('roster.pdf'), '/admin', navigate);
    expect(warn).toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(PENDING_ROSTER_KEY)).toBeNull();
  });

  it('the pilot screen tries up to 50 times, every 100 ms, for a file still on its way', async () => {
    const raw = await storedForm();
    vi.useFakeTimers();
    const onFile = vi.fn();
    render(<PilotScreen onFile={onFile} />);
    act(() => vi.advanceTimersByTime(PENDING_RETRY_MS * 10));
    sessionStorage.setItem(PENDING_ROSTER_KEY, raw);
    act(() => vi.advanceTimersByTime(PENDING_RETRY_MS));
    expect(onFile).toHaveBeenCalledTimes(1);
    expect(onFile.mock.calls[0]![0].name).toBe('roster.ics');
  });

  it('after 50 tries it stops looking until the next announcement', async () => {
    const raw = await storedForm();
    vi.useFakeTimers();
    const onFile = vi.fn();
    render(<PilotScreen onFile={onFile} />);
    act(() => vi.advanceTimersByTime(PENDING_RETRY_MS * PENDING_TRIES));
    sessionStorage.setItem(PENDING_ROSTER_KEY, raw);
    act(() => vi.advanceTimersByTime(PENDING_RETRY_MS * PENDING_TRIES));
    expect(onFile).not.toHaveBeenCalled();
    act(() => {
      window.dispatchEvent(new Event(ROSTER_FILE_READY));
    });
    expect(onFile).toHaveBeenCalledTimes(1);
  });
});
