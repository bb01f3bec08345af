import type { ReactNode } from 'react';
import { feedbackApi } from './feedback';

export interface ConfirmOptions {
  title: string;
  content: ReactNode;
  okText?: string;
  cancelText?: string;
  danger?: boolean;
}

/** A yes/no dialog as a promise: resolves true when the pilot confirms. */
export function useConfirm(): (options: ConfirmOptions) => Promise<boolean> {
  return async ({ title, content, okText = 'OK', cancelText = 'Cancel', danger }) => {
    const { modal } = await feedbackApi();
    const confirmed = await modal.confirm({
      title,
      content,
      okText,
      cancelText,
      okButtonProps: { danger },
      centered: true,
    });
    return confirmed === true;
  };
}

/** A notice with one OK button. */
export function useNotice(): (title: string, content: ReactNode) => Promise<void> {
  return async (title, content) => {
    const { modal } = await feedbackApi();
    await modal.info({ title, content, okText: 'OK', centered: true });
  };
}
