import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tooltip } from './Tooltip';

function Buttons() {
  return (
    <>
      <Tooltip title="Edit">
        <button type="button">edit</button>
      </Tooltip>
      <Tooltip title="Delete">
        <button type="button">delete</button>
      </Tooltip>
    </>
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
/** Whether the tooltip with this title is open (a closed one stays in the page, hidden). */
const shown = (title: string) =>
  screen.queryAllByRole('tooltip').some((tooltip) => tooltip.textContent === title && !tooltip.closest('.ant-tooltip')?.classList.contains('ant-tooltip-hidden'));

describe('Tooltips (admin spec section 9: open delay 700 ms, skip delay 300 ms)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens 700 ms after the pointer arrives, not before', () => {
    render(<Buttons />);
    fireEvent.mouseEnter(screen.getByText('edit'));
    advance(699);
    expect(shown('Edit')).toBe(false);
    advance(1);
    expect(shown('Edit')).toBe(true);
  });

  it('within 300 ms of one closing the next opens at once; later it waits 700 ms again', () => {
    render(<Buttons />);
    fireEvent.mouseEnter(screen.getByText('edit'));
    advance(700);
    fireEvent.mouseLeave(screen.getByText('edit'));
    advance(150); // antd's own 100 ms before a tooltip closes, and a little more
    fireEvent.mouseEnter(screen.getByText('delete'));
    advance(0);
    expect(shown('Delete')).toBe(true);

    fireEvent.mouseLeave(screen.getByText('delete'));
    advance(500);
    fireEvent.mouseEnter(screen.getByText('edit'));
    advance(400);
    expect(shown('Edit')).toBe(false);
    advance(300);
    expect(shown('Edit')).toBe(true);
  });
});
