import '../crew/crew.css';
import { WhatsAppOutlined } from '@ant-design/icons';
import { Button, QRCode, Spin } from 'antd';
import { useSetting } from '../../api/settings';
import { AppModal } from '../../shared/AppModal';

/** Tech Support Group: the WhatsApp group's join link and QR code, and where the user guide is. */
export default function TechSupportDialog({ onClose }: { onClose: () => void }) {
  const link = useSetting('tech_support_whatsapp_url');
  const guide = safeHref(useSetting('user_guide_path').data);
  return (
    <AppModal title="Tech Support Group" onCancel={onClose} width={420}>
      <div className="qr-body">
        <p>Join the WhatsApp tech support group for help with the app and news about it.</p>
        {link.isLoading && <Spin />}
        {link.data ? (
          <>
            <QRCode value={link.data} size={200} errorLevel="M" aria-label="QR code to join the tech support group" className="qr-code" />
            <p className="muted">Scan with your phone's camera, or:</p>
            <Button type="primary" className="whatsapp-link" icon={<WhatsAppOutlined />} href={link.data} target="_blank" rel="noreferrer">
              Join Tech Support Group
            </Button>
          </>
        ) : (
          !link.isLoading && <p className="muted">The tech support group's link is not set yet. Please ask your administrator.</p>
        )}
        {guide && (
          <p className="support-guide">
            Before asking, have a look at the{' '}
            <a href={guide} target="_blank" rel="noreferrer">
              user guide
            </a>
            .
          </p>
        )}
      </div>
    </AppModal>
  );
}

/** The guide's place as an admin typed it: a path on this site or a web address, never a script URL. */
export function safeHref(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const text = value.trim();
  return text.startsWith('/') && !text.startsWith('//') ? text : /^https?:\/\//i.test(text) ? text : undefined;
}
