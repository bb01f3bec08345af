import { describe, expect, it } from 'vitest';
import { masterOrder } from './order';
import { barPlacement, dayColumnWidth, daysOf, masterWindow, monthLabel, paddedRange, rowLabelWidth, scrollToToday, visibleDays } from './layout';

describe('calendar layout', () => {
  it('day column widths are 36/40/50 px for screens below 640 / below 1024 / otherwise', () => {
    expect(dayColumnWidth(390)).toBe(36);
    expect(dayColumnWidth(639)).toBe(36);
    expect(dayColumnWidth(640)).toBe(40);
    expect(dayColumnWidth(1023)).toBe(40);
    expect(dayColumnWidth(1024)).toBe(50);
    expect(dayColumnWidth(1280)).toBe(50);
  });

  it('row label width is clamped 120-200 px', () => {
    expect(rowLabelWidth(320)).toBe(120);
    expect(rowLabelWidth(640)).toBe(160);
    expect(rowLabelWidth(1920)).toBe(200);
  });

  it('pads 2 days around the trips', () => {
    expect(
      paddedRange([
        { startDate: '2026-11-10', endDate: '2026-11-12' },
        { startDate: '2026-11-02', endDate: '2026-11-04' },
      ]),
    ).toEqual({ from: '2026-10-31', to: '2026-11-14' });
    expect(paddedRange([])).toBeNull();
  });

  it('Master Calendar spans the 1st of the current month to the 7th of month+2, across year ends', () => {
    expect(masterWindow('2026-11-24')).toEqual({ from: '2026-11-01', to: '2027-01-07' });
    expect(masterWindow('2026-12-31')).toEqual({ from: '2026-12-01', to: '2027-02-07' });
    expect(masterWindow('2027-01-01')).toEqual({ from: '2027-01-01', to: '2027-03-07' });
  });

  it('the month label shows a range only when two months each cover at least 3 visible days', () => {
    const days = daysOf({ from: '2026-11-20', to: '2026-12-10' });
    expect(monthLabel(days.slice(0, 9))).toBe('Nov 2026'); // 20-28 Nov
    expect(monthLabel(days.slice(0, 13))).toBe('Nov 2026'); // 20 Nov - 2 Dec: only 2 days of December
    expect(monthLabel(days.slice(0, 14))).toBe('Nov – Dec 2026'); // 3 days of December
    expect(monthLabel(days.slice(10, 20))).toBe('Dec 2026'); // 30 Nov - 9 Dec: only 1 day of November
    expect(monthLabel(daysOf({ from: '2026-12-27', to: '2027-01-04' }))).toBe('Dec 2026 – Jan 2027');
  });

  it('visible days follow the scroll position', () => {
    const days = daysOf({ from: '2026-11-01', to: '2026-11-30' });
    expect(visibleDays(days, 0, 200, 50)).toEqual(days.slice(0, 4));
    expect(visibleDays(days, 125, 200, 50)).toEqual(days.slice(2, 7));
  });

  it('auto-scrolls so that today is about one third into the view', () => {
    const days = daysOf({ from: '2026-11-01', to: '2027-01-07' });
    const left = scrollToToday(days, '2026-11-24', 900, 50);
    expect(left).toBe(23 * 50 - 300);
    expect(scrollToToday(days, '2026-11-02', 900, 50)).toBe(0);
    expect(scrollToToday(days, '2030-01-01', 900, 50)).toBe(0);
  });

  it('places a bar on its days, clipped to the range', () => {
    const range = { from: '2026-11-01', to: '2026-11-30' };
    expect(barPlacement(range, { startDate: '2026-11-03', endDate: '2026-11-05' })).toEqual({ start: 2, span: 3 });
    expect(barPlacement(range, { startDate: '2026-10-30', endDate: '2026-11-02' })).toEqual({ start: 0, span: 2 });
    expect(barPlacement(range, { startDate: '2026-12-03', endDate: '2026-12-05' })).toBeNull();
  });
});

describe('Master Calendar order', () => {
  it('own row first, then the same fleet, then by fleet, last name, first name', () => {
    const me = { id: 'me', fleet: 'A350' as const, lastName: 'Zed', firstName: 'Amy' };
    const rows = masterOrder(
      [
        { id: '1', fleet: 'A330' as const, lastName: 'Adams', firstName: 'Bo' },
        { id: '2', fleet: 'A350' as const, lastName: 'Brown', firstName: 'Cy' },
        me,
        { id: '3', fleet: 'A350' as const, lastName: 'Brown', firstName: 'Al' },
        { id: '4', fleet: 'B787' as const, lastName: 'Able', firstName: 'Di' },
      ],
      me,
    );
    expect(rows.map((row) => row.id)).toEqual(['me', '3', '2', '1', '4']);
  });
});
