import { toast } from '../../shared/toast';

/** Copies text; a refusal (no clipboard permission, an old browser) is told in the spec's words. */
export async function copyText(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done);
  } catch {
    toast.error('Copy failed', 'Failed to copy link');
  }
}
