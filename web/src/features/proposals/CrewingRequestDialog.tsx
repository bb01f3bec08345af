import { PrinterOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { crewingRequestLines } from '@crewswap/proto/browser';
import type { SwapAgreement } from '@crewswap/proto';
import './proposals.css';
import { AppModal } from '../../shared/AppModal';

/** The crewing request, as mailed, on a page to print (the print style shows only this page). */
export default function CrewingRequestDialog({ agreement, onClose }: { agreement: SwapAgreement; onClose: () => void }) {
  const lines = crewingRequestLines(agreement);
  return (
    <AppModal
      title="Crewing Request"
      onCancel={onClose}
      width={640}
      wrapClassName="crewing-print"
      extra={
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          Print
        </Button>
      }
    >
      <div className="crewing-request" aria-label="Crewing request">
        {lines.map((line, index) => (line === '' ? <hr key={index} /> : <p key={index}>{line}</p>))}
      </div>
    </AppModal>
  );
}
