import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setFeedbackApi } from './feedback';
import FeedbackHost from './FeedbackHost';
import { toast } from './toast';

afterEach(() => setFeedbackApi(undefined));

/** The toast's box, found by its title. */
async function shownToast(title: string): Promise<HTMLElement> {
  return (await screen.findByText(title)).closest('.ant-notification-notice') as HTMLElement;
}

function swipe(notice: HTMLElement, dx: number) {
  fireEvent.pointerDown(notice, { pointerId: 1, clientX: 100 });
  fireEvent.pointerMove(window, { pointerId: 1, clientX: 100 + dx });
  fireEvent.pointerUp(window, { pointerId: 1, clientX: 100 + dx });
}

describe('Toasts (admin spec section 4)', () => {
  it("are shown in the region 'Notifications (F8)', which F8 focuses", async () => {
    render(<FeedbackHost />);
    act(() => toast.success('Trip Deleted'));
    const viewport = screen.getByRole('region', { name: 'Notifications (F8)' });
    expect(viewport).toContainElement(await shownToast('Trip Deleted'));
    expect(viewport).not.toHaveFocus();
    fireEvent.keyDown(window, { key: 'F8' });
    expect(viewport).toHaveFocus();
  });

  it('a swipe right of more than 50 px dismisses the toast; a shorter one lets it slide back', async () => {
    render(<FeedbackHost />);
    // Sticky: only the swipe can take it away within the test.
    act(() => toast.error('Error', 'Failed to update trip: down', { sticky: true }));
    const notice = await shownToast('Error');
    fireEvent.pointerDown(notice, { pointerId: 1, clientX: 100 });
    fireEvent.pointerMove(window, { pointerId: 1, clientX: 130 });
    expect(notice.style.translate).toBe('30px 0');
    fireEvent.pointerUp(window, { pointerId: 1, clientX: 130 });
    expect(notice.style.translate).toBe('');
    swipe(notice, 50);
    expect(screen.getByText('Failed to update trip: down')).toBeInTheDocument();
    swipe(notice, 51);
    await waitFor(() => expect(screen.queryByText('Failed to update trip: down')).not.toBeInTheDocument());
  });
});
