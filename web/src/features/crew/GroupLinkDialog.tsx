import './crew.css';
import { CopyOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { Button, QRCode, Typography } from 'antd';
import { AppModal } from '../../shared/AppModal';
import { copyText } from './copy';

interface Props {
  title: string;
  link: string;
  /** A line above the code, e.g. what scanning it does. */
  intro?: string;
  onClose: () => void;
}

/** A WhatsApp link and its QR code (200 px, error correction level M) to scan from another phone. */
export function GroupLinkDialog({ title, link, intro, onClose }: Props) {
  return (
    <AppModal title={title} onCancel={onClose} width={380}>
      <div className="qr-body">
        {intro && <p className="muted">{intro}</p>}
        <QRCode value={link} size={200} errorLevel="M" aria-label={`QR code for ${link}`} className="qr-code" />
        <Typography.Text className="qr-link" copyable={false}>
          {link}
        </Typography.Text>
        <div className="qr-actions">
          <Button icon={<CopyOutlined />} onClick={() => void copyText(link, 'Link copied')}>
            Copy Link
          </Button>
          <Button className="whatsapp-link" icon={<WhatsAppOutlined />} href={link} target="_blank" rel="noreferrer">
            Open in WhatsApp
          </Button>
        </div>
      </div>
    </AppModal>
  );
}
