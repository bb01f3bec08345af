import { lazy, Suspense, useEffect, useState } from 'react';
import { SESSION_FLAGS } from '../../api/client';

// Shown only after a session ended: its code is not part of the login page's first load.
const Alert = lazy(() => import('antd/es/alert'));

const BANNERS = [
  {
    flag: SESSION_FLAGS.shutdown,
    type: 'error' as const,
    title: 'System Temporarily Unavailable',
    text: 'The system has been temporarily shut down by an administrator. Please try again later.',
  },
  {
    flag: SESSION_FLAGS.elsewhere,
    type: 'warning' as const,
    title: 'Logged In Elsewhere',
    text: 'Your account was signed in on another device, so this session has ended. Please log in again.',
  },
  {
    flag: SESSION_FLAGS.expired,
    type: 'warning' as const,
    title: 'Session Expired',
    text: 'Your session has expired due to inactivity. Please log in again.',
  },
];

/**
 * Reads the stored flags once: a banner explains why the pilot is back at the login page. The
 * flags are cleared only once the banner is on screen: the login page is rendered in the
 * background (useDeferredValue), and a render React throws away must not take the flag with it.
 */
export function SessionBanners() {
  const [shown] = useState(() => BANNERS.filter((banner) => sessionStorage.getItem(banner.flag) === 'true'));
  useEffect(() => {
    for (const banner of shown) sessionStorage.removeItem(banner.flag);
  }, [shown]);
  if (shown.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <div className="stack">
        {shown.map((banner) => (
          <Alert key={banner.flag} type={banner.type} showIcon title={banner.title} description={banner.text} closable />
        ))}
      </div>
    </Suspense>
  );
}
