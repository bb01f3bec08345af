import { App as AntApp, ConfigProvider, Spin } from 'antd';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useCurrentPilot } from './api/auth';
import { connectSession } from './api/client';
import { useLiveUpdates } from './api/liveUpdates';
import { LoginPage } from './features/auth/LoginPage';
import { InstallPrompt } from './features/install/InstallPrompt';
import { useOpenedRosterFiles } from './features/roster/pendingRoster';
import { TripsPage } from './features/trips/TripsPage';
import { setToastApi } from './shared/toast';
import { useIsNarrow } from './shared/useIsNarrow';
import { appTheme, ThemeVariables } from './theme';

const NotFound = lazy(() => import('./features/not-found/NotFound'));
// The administrator console is its own chunk: a pilot's first load of / carries none of it.
const AdminConsole = lazy(() => import('./features/admin/AdminConsole'));

/** The console's loading text, shown while its chunk arrives (the console shows it again while it asks who is signed in). */
function AdminLoading() {
  return (
    <div className="page-center" role="status">
      <Spin />
      <span>Loading admin panel...</span>
    </div>
  );
}

function ToastBridge() {
  const { notification } = AntApp.useApp();
  setToastApi(notification);
  return null;
}

/** Theme, one-toast-at-a-time notifications and the data cache; tests render through this too. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const narrow = useIsNarrow();
  return (
    <ConfigProvider theme={appTheme(narrow)}>
      <ThemeVariables />
      <AntApp notification={{ maxCount: 1, placement: 'top' }} message={{ maxCount: 1 }}>
        <ToastBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

function SessionConnector({ queryClient }: { queryClient: QueryClient }) {
  const navigate = useNavigate();
  useEffect(() => connectSession(queryClient, navigate), [queryClient, navigate]);
  return null;
}

/** Roster files opened with the installed app or shared to it, wherever the app is. */
function OpenedRosterFiles() {
  const location = useLocation();
  const navigate = useNavigate();
  const path = useRef(location.pathname);
  path.current = location.pathname;
  useOpenedRosterFiles(() => path.current, navigate);
  return null;
}

/** The event stream runs while a pilot is signed in. */
function LiveUpdates() {
  useLiveUpdates();
  return null;
}

/** `/`, `/upload-roster` and `/share-roster`: the trips page when signed in, else the login page. */
export function Home() {
  const { data: pilot, isLoading } = useCurrentPilot();
  if (isLoading) {
    return (
      <div className="page-center" role="status">
        <Spin />
      </div>
    );
  }
  return (
    <>
      <InstallPrompt />
      {pilot ? (
        <>
          <LiveUpdates />
          <TripsPage pilot={pilot} />
        </>
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

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <SessionConnector queryClient={queryClient} />
        <OpenedRosterFiles />
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
