import { Modal, type ModalProps } from 'antd';
import { useIsNarrow } from './useIsNarrow';

/** Every dialog of the app: full width on a narrow screen, its own width otherwise. */
export function AppModal({ width = 520, className, ...props }: ModalProps) {
  const narrow = useIsNarrow();
  return (
    <Modal
      {...props}
      width={narrow ? '100%' : width}
      className={[narrow ? 'app-modal-narrow' : '', className ?? ''].join(' ').trim()}
      style={narrow ? { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 } : props.style}
      destroyOnHidden
    />
  );
}
