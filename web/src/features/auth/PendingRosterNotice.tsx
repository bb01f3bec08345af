import { Alert } from 'antd';
import { usePendingRosterName } from '../roster/pendingRoster';

/** 'Log in to upload {file}.' when a roster file opened with the app waits for the pilot to log in. */
export default function PendingRosterNotice() {
  const pendingRoster = usePendingRosterName();
  return pendingRoster ? <Alert type="info" showIcon className="form-alert" title={`Log in to upload ${pendingRoster}.`} /> : null;
}
