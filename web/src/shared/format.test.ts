import { describe, expect, it } from 'vitest';
import { formatDate, formatDay, formatRange } from './format';

// What Intl's en-GB would write, with its four-letter 'Sept' as the three letters every other month has.
const intlDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const intlDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const threeLetters = (text: string) => text.replace('Sept', 'Sep');

describe('dates on cards and dialogs', () => {
  it("writes every day of 2026 and 2027 as 'Mon 12 Jan' and '12 Jan 2026', whatever the device's time zone", () => {
    for (let day = 0; day < 730; day += 1) {
      const date = new Date(Date.UTC(2026, 0, 1 + day));
      const iso = date.toISOString().slice(0, 10);
      expect(formatDay(iso)).toBe(threeLetters(intlDay.format(date)));
      expect(formatDate(iso)).toBe(threeLetters(intlDate.format(date)));
    }
    expect(formatDay('2026-09-12')).toBe('Sat 12 Sep');
  });

  it('writes a trip over several days as a range, and a day trip as its day', () => {
    expect(formatRange('2026-12-02', '2026-12-05')).toBe('Wed 2 Dec – Sat 5 Dec');
    expect(formatRange('2026-12-02', '2026-12-02')).toBe('Wed 2 Dec');
  });
});
