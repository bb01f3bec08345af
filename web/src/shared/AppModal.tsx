import { Modal, type ModalProps } from 'antd';
import type { ReactNode } from 'react';
import { useIsNarrow } from './useIsNarrow';

interface Props extends Omit<ModalProps, 'footer'> {
  /** Buttons at the left end of the footer, e.g. Delete. */
  start?: ReactNode;
  /** A button in the Cancel button's place, e.g. Resend Code (the close icon still cancels). */
  secondary?: ReactNode;
  /** Buttons between Cancel and OK, e.g. Interbids and How To. */
  extra?: ReactNode;
}

/** antd's OK button run by a mutation (it spins while the mutation is pending): `{...okAction('Verify', verify, verifyEmail)}`. */
export function okAction(okText: string, onOk: () => void, mutation: { isPending: boolean }) {
  return { okText, onOk, confirmLoading: mutation.isPending };
}

/**
 * Every dialog of the app. On a narrow screen it is a full-width sheet at the bottom, as tall as
 * its content (never taller than the screen): the buttons stay within thumb reach and in view,
 * and the top of the screen stays free for toasts. Otherwise it is a centred dialog of its width.
 *
 * Dialogs are shown by mounting them (`open` defaults to true). The buttons are antd's own: `onOk`
 * with `okText`, and `confirmLoading` from the mutation's `isPending` (see okAction). A dialog with
 * no `onOk` only shows something: its one button is Close.
 */
export function AppModal({ open = true, width = 520, className, wrapClassName, start, secondary, extra, ...props }: Props) {
  const narrow = useIsNarrow();
  const action = props.onOk !== undefined;
  return (
    <Modal
      cancelText={action ? undefined : 'Close'}
      {...props}
      open={open}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          {start && <span className="app-modal-start">{start}</span>}
          {secondary ?? <CancelBtn />}
          {extra}
          {action && <OkBtn />}
        </>
      )}
      width={narrow ? '100%' : width}
      className={['app-modal', narrow ? 'app-modal-narrow' : '', className ?? ''].join(' ').trim()}
      wrapClassName={[narrow ? 'app-sheet-wrap' : '', wrapClassName ?? ''].join(' ').trim() || undefined}
      style={narrow ? { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 } : props.style}
      destroyOnHidden
    />
  );
}
