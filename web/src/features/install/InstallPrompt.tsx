import { DownloadOutlined, PlusSquareOutlined, UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { startTransition, useEffect, useState } from 'react';
import { useProductName } from '../../api/auth';
import { AppModal } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import './install.css';
import { forgetInstallOffer, onInstallOffer, pendingInstallOffer } from './installOffer';
import { dismissalExpired, DISMISSED_KEY, IOS_AUTO_SHOW_MS, isIos, isStandalone, rememberDismissal, type BeforeInstallPromptEvent } from './installRules';

type Offer = { kind: 'native'; event: BeforeInstallPromptEvent } | { kind: 'ios' };

/**
 * 'Install {product}': offered when the browser says the app can be installed, or on iOS (which
 * never says so) 5 s after load; never inside the installed app, nor within 7 days of 'Maybe Later'.
 */
export function InstallPrompt() {
  const productName = useProductName();
  const [offer, setOffer] = useState<Offer | null>(null);
  const [installing, setInstalling] = useState(false);

  useEffect(() => {
    if (isStandalone()) return undefined;
    const allowed = () => dismissalExpired(localStorage.getItem(DISMISSED_KEY), Date.now());
    // The browser offers this while the first screen is still settling: the dialog is rendered a
    // few milliseconds at a time, so a phone's main thread is not held for the whole of it.
    const onPrompt = (event: BeforeInstallPromptEvent) => {
      if (allowed()) startTransition(() => setOffer({ kind: 'native', event }));
    };
    const pending = pendingInstallOffer();
    if (pending) onPrompt(pending);
    const unsubscribe = onInstallOffer(onPrompt);
    const timer = isIos(navigator) ? setTimeout(() => allowed() && setOffer((current) => current ?? { kind: 'ios' }), IOS_AUTO_SHOW_MS) : undefined;
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, []);

  if (!offer) return null;

  const close = () => {
    forgetInstallOffer();
    setOffer(null);
  };
  const later = () => {
    rememberDismissal(Date.now());
    close();
  };
  const install = async () => {
    if (offer.kind !== 'native') return;
    setInstalling(true);
    try {
      await offer.event.prompt();
      const choice = await offer.event.userChoice;
      if (choice.outcome === 'accepted') toast.success('App Installed', `${productName} has been added to your home screen`);
    } finally {
      // The browser's prompt can be used once, whatever the pilot chose.
      setInstalling(false);
      close();
    }
  };

  const ios = offer.kind === 'ios';
  return (
    <AppModal
      title={`Install ${productName}`}
      onCancel={close}
      width={440}
      // It opens by itself, often while the first screen is still loading: it appears in place,
      // with no zoom from a tapped point (nothing was tapped) and no animation to start meanwhile.
      transitionName=""
      maskTransitionName=""
      secondary={<Button onClick={later}>Maybe Later</Button>}
      extra={ios ? undefined : <Button onClick={close}>Cancel</Button>}
      {...(ios ? {} : { okText: 'Install App', onOk: () => void install(), confirmLoading: installing, okButtonProps: { icon: <DownloadOutlined /> } })}
    >
      {ios ? (
        <>
          <p>Install {productName} on your home screen:</p>
          <ol className="install-steps">
            <li>
              Tap the Share button <UploadOutlined aria-label="Share" /> at the bottom of Safari.
            </li>
            <li>
              Scroll down and tap <strong>Add to Home Screen</strong> <PlusSquareOutlined aria-hidden="true" />.
            </li>
            <li>
              Tap <strong>Add</strong> to confirm.
            </li>
          </ol>
          <p className="install-note">Push notifications work best when {productName} is installed on your home screen.</p>
        </>
      ) : (
        <p>Install {productName} for faster access, offline support, and push notifications.</p>
      )}
    </AppModal>
  );
}
