import { CheckCircleTwoTone, CloseCircleTwoTone, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Progress, Typography } from 'antd';
import { useRef, useState } from 'react';
import type { RosterUploadResult } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import { checkSession, rosterFileProblem, STAGE_PERCENT, useUploadRoster, type UploadStage } from '../../api/roster';
import { useSetting } from '../../api/settings';
import { AppModal } from '../../shared/AppModal';

const STAGE_TEXT: Record<UploadStage, string> = {
  idle: '',
  validating: 'Checking the file...',
  uploading: 'Uploading...',
  processing: 'Processing your roster...',
  success: 'Upload complete',
  error: 'Upload failed',
};

/** Roster upload: instructions, the file chooser, progress through the spec's stages, the result. */
export default function RosterUploadDialog({ onClose }: { onClose: () => void }) {
  const uploadEmail = useSetting('upload_email').data;
  const interbidsUrl = useSetting('interbids_url').data;
  const upload = useUploadRoster();
  const input = useRef<HTMLInputElement>(null);
  const [stage, setStage] = useState<UploadStage>('idle');
  const [percent, setPercent] = useState(0);
  const [result, setResult] = useState<RosterUploadResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [guide, setGuide] = useState(false);
  const busy = stage === 'validating' || stage === 'uploading' || stage === 'processing';

  const start = async (file: File) => {
    setResult(null);
    setFailure(null);
    setStage('validating');
    setPercent(STAGE_PERCENT.validating);
    const problem = rosterFileProblem(file);
    if (problem) {
      setStage('error');
      setFailure(problem);
      return;
    }
    try {
      const answer = await upload.mutateAsync({
        file,
        onProgress: (next, value) => {
          setStage(next);
          setPercent(value);
        },
      });
      setResult(answer);
      setStage('success');
      setPercent(STAGE_PERCENT.success);
    } catch (error) {
      setStage('error');
      setFailure(errorMessage(error) || 'Upload failed');
    }
  };

  const howTo = async () => {
    if (await checkSession()) setGuide(true);
  };

  return (
    <AppModal
      open
      title="Upload Roster"
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      footer={[
        <Button key="close" onClick={onClose} disabled={busy}>
          Close
        </Button>,
        <Button key="interbids" href={interbidsUrl || undefined} target="_blank" rel="noreferrer" disabled={!interbidsUrl || busy}>
          Interbids
        </Button>,
        <Button key="howto" onClick={howTo} disabled={busy}>
          How To
        </Button>,
        <Button key="open" type="primary" icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
          Open
        </Button>,
      ]}
    >
      <input
        ref={input}
        type="file"
        accept=".ics,.ics_,.cal,text/calendar"
        aria-label="Roster file"
        style={{ display: 'none' }}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void start(file);
        }}
      />
      {stage === 'idle' && !guide && (
        <div className="roster-instructions">
          <p>Only trips and standby duties are uploaded; days off, leave and ground duties are skipped, and trips you already have are not added twice.</p>
          <p>Press Open and choose the calendar file (.ics) of your roster, or email it from your company email account to:</p>
          <Typography.Paragraph copyable={uploadEmail ? { text: uploadEmail, tooltips: ['Copy address', 'Copied'] } : false} strong>
            {uploadEmail ?? 'the roster upload address'}
          </Typography.Paragraph>
        </div>
      )}
      {guide && stage === 'idle' && (
        <div className="roster-guide" aria-label="Interbids guide">
          <h4>Download your roster from Interbids</h4>
          <ol>
            <li>Open Interbids (the Interbids button below) and sign in.</li>
            <li>Click the Report tab.</li>
            <li>Select the calendar file.</li>
            <li>Press Open to save it, then upload it here with Open or email it to the upload address.</li>
          </ol>
        </div>
      )}
      {stage !== 'idle' && (
        <div className="roster-progress" role="status">
          <Progress percent={percent} status={stage === 'error' ? 'exception' : stage === 'success' ? 'success' : 'active'} />
          <p>{STAGE_TEXT[stage]}</p>
        </div>
      )}
      {result && (
        <div className="roster-result" aria-label="Upload result">
          <p>
            <CheckCircleTwoTone twoToneColor="#52c41a" /> <strong>{result.processedCount} {result.processedCount === 1 ? 'trip' : 'trips'} added</strong>
          </p>
          {result.duplicateCount > 0 && <p>{result.duplicateCount} already in your trips (duplicates skipped)</p>}
          {result.conflicts.length > 0 && (
            <>
              <p>Not added, they overlap trips you hold:</p>
              <ul>
                {result.conflicts.map((conflict) => (
                  <li key={conflict}>{conflict}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {failure && (
        <Alert
          type="error"
          showIcon
          icon={<CloseCircleTwoTone twoToneColor="#ff4d4f" />}
          title="Upload failed"
          description={
            <>
              <div>{failure}</div>
              <div>Please correct the issue and try again.</div>
            </>
          }
        />
      )}
    </AppModal>
  );
}
