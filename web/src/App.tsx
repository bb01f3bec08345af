import { ConfigProvider } from 'antd';
import { QueryClientProvider, useIsRestoring, type QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider, type Persister } from '@tanstack/react-query-persist-client';
import { lazy, Suspense, useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useCurrentPilot } from './api/auth';
import { connectSession } from './api/client';
import { afterRestore, persistOptions } from './api/persist';
import { LoginPage } from './features/auth/LoginPage';
import { OfflineBanner } from './features/offline/OfflineBanner';
import { onInstallOffer, pendingInstallOffer } from './features/install/installOffer';
import { isIos } from './features/install/installRules';
import { onFeedbackRequested } from './shared/feedback';
import { PageLoading } from './shared/PageLoading';
import { useIsNarrow } from './shared/useIsNarrow';
import { appTheme, ThemeVariables } from './theme';

const NotFound = lazy(() => import('./features/not-found/NotFound'));
// The trips page and its event stream load once a pilot is known: the login page carries neither.
const TripsPage = lazy(() => import('./features/trips/TripsPage').then((module) => ({ default: module.TripsPage })));
const LiveUpdates = lazy(() =>
  import('./api/liveUpdates').then(({ useLiveUpdates }) => ({
    default: function LiveUpdates() {
      useLiveUpdates();
      return null;
    },
  })),
);
// The administrator console is its own chunk: a pilot's first load of / carries none of it.
const AdminConsole = lazy(() => import('./features/admin/AdminConsole'));

/** The console's loading text, shown while its chunk arrives (the console shows it again while it asks who is signed in). */
function AdminLoading() {
  return <PageLoading text="Loading admin panel..." />;
}

const FeedbackHost = lazy(() => import('./shared/FeedbackHost'));
// Offered by the browser after the page has loaded; its dialog is not part of the first screen.
const InstallPrompt = lazy(() => import('./features/install/InstallPrompt').then((module) => ({ default: module.InstallPrompt })));

/**
 * The install dialog, whose code (antd's Modal) loads only when there is an install to offer: the
 * browser offered it, or on iOS, which never does (the dialog shows its steps after a while).
 */
function Install() {
  const [wanted, setWanted] = useState(() => pendingInstallOffer() !== null || isIos(navigator));
  useEffect(() => onInstallOffer(() => setWanted(true)), []);
  return wanted ? (
    <Suspense fallback={null}>
      <InstallPrompt />
    </Suspense>
  ) : null;
}

/** Mounts antd's toast and dialog host the first time something asks for it (shared/feedback.ts). */
function Feedback() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => onFeedbackRequested(() => setWanted(true)), []);
  return wanted ? (
    <Suspense fallback={null}>
      <FeedbackHost />
    </Suspense>
  ) : null;
}

interface ProvidersProps {
  queryClient: QueryClient;
  /** Where the cache is kept between visits (the app opens offline on it); tests keep none. */
  persister?: Persister;
  children: ReactNode;
}

/** Theme, one-toast-at-a-time notifications and the data cache; tests render through this too. */
export function AppProviders({ queryClient, persister, children }: ProvidersProps) {
  const narrow = useIsNarrow();
  return (
    <ConfigProvider theme={appTheme(narrow)}>
      <ThemeVariables />
      <Feedback />
      {persister ? (
        <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions(persister)} onSuccess={() => afterRestore(queryClient)}>
          {children}
        </PersistQueryClientProvider>
      ) : (
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      )}
    </ConfigProvider>
  );
}

function SessionConnector({ queryClient }: { queryClient: QueryClient }) {
  const navigate = useNavigate();
  useEffect(() => connectSession(queryClient, navigate), [queryClient, navigate]);
  return null;
}

/**
 * Roster files opened with the installed app or shared to it, wherever the app is. Loaded after
 * the first screen: the browser keeps a launch's files until the app takes them.
 */
const OpenedRosterFiles = lazy(() =>
  import('./features/roster/pendingRoster').then(({ useOpenedRosterFiles }) => ({
    default: function OpenedRosterFiles() {
      const location = useLocation();
      const navigate = useNavigate();
      const path = useRef(location.pathname);
      path.current = location.pathname;
      useOpenedRosterFiles(() => path.current, navigate);
      return null;
    },
  })),
);

/** `/`, `/upload-roster` and `/share-roster`: the trips page when signed in, else the login page. */
export function Home() {
  const { data: current, isLoading } = useCurrentPilot();
  // While the kept cache is read back, the pilot is not known yet: not the login page.
  const restoring = useIsRestoring();
  // The screen that opens (login or trips) is rendered in the background, a few milliseconds at a
  // time, while the one before stays: a phone's main thread is never held for long (issue 40).
  const pilot = useDeferredValue(isLoading || restoring ? undefined : (current ?? null));
  const loading = <PageLoading />;
  if (pilot === undefined) return loading;
  return (
    <>
      <Install />
      {pilot ? (
        <Suspense fallback={loading}>
          <OfflineBanner />
          <LiveUpdates />
          <TripsPage pilot={pilot} />
        </Suspense>
      ) : (
        <LoginPage />
      )}
    </>
  );
}

/**
 * The spec lists /admin-preview without its content; the only admin screen it describes is the
 * console, so the preview opens it (never 'Page Not Found'), without an extra history entry.
 */
function AdminPreview() {
  const navigate = useNavigate();
  useEffect(() => void navigate('/admin', { replace: true }), [navigate]);
  return <AdminLoading />;
}

export function App({ queryClient, persister }: { queryClient: QueryClient; persister?: Persister }) {
  return (
    <AppProviders queryClient={queryClient} persister={persister}>
      <BrowserRouter>
        <SessionConnector queryClient={queryClient} />
        <Suspense fallback={null}>
          <OpenedRosterFiles />
        </Suspense>
        <Routes>
          <Route path="/" element={<Home />} />
          <Route path="/upload-roster" element={<Home />} />
          <Route path="/share-roster" element={<Home />} />
          <Route
            path="/admin/*"
            element={
              <Suspense fallback={<AdminLoading />}>
                <AdminConsole />
              </Suspense>
            }
          />
          <Route path="/admin-preview" element={<AdminPreview />} />
          <Route
            path="*"
            element={
              <Suspense fallback={null}>
                <NotFound />
              </Suspense>
            }
          />
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}
