import { Modal, type ModalProps } from 'antd';
import { useIsNarrow } from './useIsNarrow';

/**
 * Every dialog of the app. On a narrow screen it is a full-width sheet at the bottom, as tall as
 * its content (never taller than the screen): the buttons stay within thumb reach and in view,
 * and the top of the screen stays free for toasts. Otherwise it is a centred dialog of its width.
 */
export function AppModal({ width = 520, className, wrapClassName, ...props }: ModalProps) {
  const narrow = useIsNarrow();
  return (
    <Modal
      {...props}
      width={narrow ? '100%' : width}
      className={[narrow ? 'app-modal-narrow' : '', className ?? ''].join(' ').trim() || undefined}
      wrapClassName={[narrow ? 'app-sheet-wrap' : '', wrapClassName ?? ''].join(' ').trim() || undefined}
      style={narrow ? { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 } : props.style}
      destroyOnHidden
    />
  );
}
