import { afterEach, describe, expect, it, vi } from 'vitest';
import { setFeedbackApi, type FeedbackApi } from './feedback';
import { toast, toastSeconds } from './toast';

describe('toast durations', () => {
  afterEach(() => setFeedbackApi(undefined));

  it('the pilot app keeps every toast 2-3 s, errors included; the console 5 s; sticky ones stay', async () => {
    expect(toastSeconds('/')).toBe(3);
    expect(toastSeconds('/upload-roster')).toBe(3);
    expect(toastSeconds('/admin')).toBe(5);
    expect(toastSeconds('/admin/security')).toBe(5);
    expect(toastSeconds('/administrator')).toBe(3);

    const notification = { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() };
    setFeedbackApi({ notification, modal: {} } as unknown as FeedbackApi);
    toast.error('Error', 'Failed to update trip: down');
    toast.warning('Password Reset', 'Check your email', { sticky: true });
    await vi.waitFor(() => expect(notification.warning).toHaveBeenCalled());
    expect(notification.error).toHaveBeenCalledWith(expect.objectContaining({ duration: 3 }));
    expect(notification.warning).toHaveBeenCalledWith(expect.objectContaining({ duration: 0 }));
  });
});
