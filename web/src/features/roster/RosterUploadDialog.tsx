import { CloseCircleTwoTone, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Progress, theme, Typography } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { RosterUploadResult } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import { checkSession, rosterFileProblem, STAGE_PERCENT, useUploadRoster, type UploadStage } from '../../api/roster';
import { useSetting } from '../../api/settings';
import { AppModal, okAction } from '../../shared/AppModal';
import { rememberChangedTrips } from '../../shared/changedTrips';
import { isOpenableRosterFile } from './pendingRoster';
import { PrivateUploadAddress } from './PrivateUploadAddress';
import RosterUploadResultView from './RosterUploadResultView';

const RosterAddressSection = lazy(() => import('./RosterAddressSection'));

const STAGE_TEXT: Record<UploadStage, string> = {
  idle: '',
  validating: 'Checking the file...',
  uploading: 'Uploading...',
  processing: 'Processing your roster...',
  success: 'Upload complete',
  error: 'Upload failed',
};

/**
 * Roster upload: instructions, the file chooser, progress through the spec's stages, the result.
 * `file` (opened with the installed app or shared to it) is uploaded as soon as the dialog has it.
 */
export default function RosterUploadDialog({ file: givenFile, onClose }: { file?: File; onClose: () => void }) {
  const { token } = theme.useToken();
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

  const start = (file: File) => {
    setResult(null);
    setFailure(null);
    setStage('validating');
    setPercent(STAGE_PERCENT.validating);
    // A file opened with the app may carry any extension the app handles (admin spec section 5).
    const problem = rosterFileProblem(file, file === givenFile ? isOpenableRosterFile : undefined);
    if (problem) {
      setStage('error');
      setFailure(problem);
      return;
    }
    const onProgress = (next: UploadStage, value: number) => {
      setStage(next);
      setPercent(value);
    };
    upload.mutate(
      { file, onProgress },
      {
        onSuccess: (answer) => {
          rememberChangedTrips(answer.changes.filter((change) => change.kind === 'changed').map((change) => change.tripId));
          setResult(answer);
          setStage('success');
          setPercent(STAGE_PERCENT.success);
        },
        // Told in the dialog, not as a toast: 'Upload failed', the reason, 'Please correct the issue...'.
        onError: (error) => {
          setStage('error');
          setFailure(errorMessage(error) || 'Upload failed');
        },
      },
    );
  };

  const started = useRef<File | undefined>(undefined);
  useEffect(() => {
    if (!givenFile || started.current === givenFile || busy) return;
    started.current = givenFile;
    start(givenFile);
    // start() is recreated each render; the file alone decides when to begin.
  }, [givenFile]);

  const howTo = async () => {
    if (await checkSession()) setGuide(true);
  };

  return (
    <AppModal
      title="Upload Roster"
      // The spec: the dialog cannot be closed while an upload is in progress.
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      cancelText="Close"
      cancelButtonProps={{ disabled: busy }}
      {...okAction('Open', () => input.current?.click(), { isPending: busy })}
      okButtonProps={{ icon: <UploadOutlined /> }}
      extra={
        <>
          <Button href={interbidsUrl || undefined} target="_blank" rel="noreferrer" disabled={!interbidsUrl || busy}>
            Interbids
          </Button>
          <Button onClick={howTo} disabled={busy}>
            How To
          </Button>
        </>
      }
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
          if (file) start(file);
        }}
      />
      {stage === 'idle' && !guide && (
        <div className="roster-instructions">
          <p>Only trips and standby duties are uploaded; days off, leave and ground duties are skipped, and trips you already have are not added twice.</p>
          <p>Press Open and choose the calendar file (.ics) of your roster, or email it from your company email account to:</p>
          <Typography.Paragraph copyable={uploadEmail ? { text: uploadEmail, tooltips: ['Copy address', 'Copied'] } : false} strong>
            {uploadEmail ?? 'the roster upload address'}
          </Typography.Paragraph>
          <PrivateUploadAddress />
          <Suspense fallback={null}>
            <RosterAddressSection />
          </Suspense>
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
      {result && <RosterUploadResultView result={result} />}
      {failure && (
        <Alert
          type="error"
          showIcon
          icon={<CloseCircleTwoTone twoToneColor={token.colorError} />}
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
