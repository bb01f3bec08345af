import { act, render, screen } from '@testing-library/react';
import { PageLoading, SPINNER_DELAY_MS } from './PageLoading';

describe('a page loading', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says what it waits for at once, and spins only once the wait is not short, in the place kept for it', () => {
    render(<PageLoading text="Loading your trips..." />);
    expect(screen.getByRole('status', { name: 'Loading your trips...' })).toHaveTextContent('Loading your trips...');
    const spinner = document.querySelector('.page-spinner')!;
    expect(spinner).not.toHaveClass('page-spinner-shown');

    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS - 1));
    expect(spinner).not.toHaveClass('page-spinner-shown');
    act(() => vi.advanceTimersByTime(1));
    expect(spinner).toHaveClass('page-spinner-shown');
  });
});
