import { describe, expect, it, vi } from 'vitest';
import { setToastApi, toast, toastSeconds } from './toast';

describe('toast durations', () => {
  it('the pilot app keeps every toast 2-3 s, errors included; the console 5 s; sticky ones stay', () => {
    expect(toastSeconds('/')).toBe(3);
    expect(toastSeconds('/upload-roster')).toBe(3);
    expect(toastSeconds('/admin')).toBe(5);
    expect(toastSeconds('/admin/security')).toBe(5);
    expect(toastSeconds('/administrator')).toBe(3);

    const api = { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() };
    setToastApi(api as never);
    toast.error('Error', 'Failed to update trip: down');
    expect(api.error).toHaveBeenCalledWith(expect.objectContaining({ duration: 3 }));
    toast.warning('Password Reset', 'Check your email', { sticky: true });
    expect(api.warning).toHaveBeenCalledWith(expect.objectContaining({ duration: 0 }));
  });
});
