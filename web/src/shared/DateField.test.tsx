import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import { DateField } from './DateField';
import { formatDay, formatNumericDate, formatRange } from './format';

function Field({ initial, onChange }: { initial: string; onChange: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="when">When</label>
      <DateField
        id="when"
        value={value}
        min="2026-12-02"
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
      />
    </>
  );
}

describe("Date pickers (admin spec section 9: 'week starts on Sunday, English (US), format MM/dd/yyyy')", () => {
  it('show the day as MM/dd/yyyy and give it back as the API writes it', () => {
    const onChange = vi.fn();
    renderWithApp(<Field initial="2026-12-09" onChange={onChange} />);
    const input = screen.getByLabelText('When') as HTMLInputElement;
    expect(input.value).toBe('12/09/2026');
    fireEvent.mouseDown(input);
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: '12/24/2026' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith('2026-12-24');
  });

  it("start the week on Sunday, and a day before the earliest allowed can't be chosen", () => {
    renderWithApp(<Field initial="2026-12-09" onChange={() => {}} />);
    fireEvent.mouseDown(screen.getByLabelText('When'));
    fireEvent.click(screen.getByLabelText('When'));
    const weekdays = [...document.querySelectorAll('.ant-picker-content thead th')].map((cell) => cell.textContent);
    expect(weekdays).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']);
    expect(document.querySelector('td[title="2026-12-01"]')).toHaveClass('ant-picker-cell-disabled');
    expect(document.querySelector('td[title="2026-12-02"]')).not.toHaveClass('ant-picker-cell-disabled');
  });
});

describe('dates the app writes', () => {
  it("in numbers follow MM/dd/yyyy; written out ('Wed 2 Dec') they stay as they are", () => {
    expect(formatNumericDate('2026-12-02')).toBe('12/02/2026');
    expect(formatNumericDate('2026-11-26T08:30:00.000Z')).toBe('11/26/2026');
    expect(formatDay('2026-12-02')).toBe('Wed 2 Dec');
    expect(formatRange('2026-12-02', '2026-12-05')).toBe('Wed 2 Dec – Sat 5 Dec');
  });
});
