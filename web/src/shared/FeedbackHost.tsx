import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { setFeedbackApi } from './feedback';

function Bridge() {
  const { notification, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedbackApi({ notification, modal });
    return () => setFeedbackApi(undefined);
  }, [notification, modal]);
  return null;
}

/** antd's App for toasts (one at a time, at the top) and confirm dialogs; see feedback.ts. */
export default function FeedbackHost() {
  return (
    <AntApp component={false} notification={{ maxCount: 1, placement: 'top' }} message={{ maxCount: 1 }}>
      <Bridge />
    </AntApp>
  );
}
