import { CustomerServiceOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import type { LoginResponse, Pilot } from '@crewswap/proto';
import { useAuthConfig, useProductName, useSetCurrentPilot, type PendingVerification } from '../../api/auth';
import { useSetting } from '../../api/settings';
import { PageLoading } from '../../shared/PageLoading';
import { SimpleTabs } from '../../shared/SimpleTabs';
import { LoginForm } from './LoginForm';
import { SessionBanners } from './SessionBanners';

// A file opened with the app is rare at the login page: its notice (and antd's Alert) loads apart.
const PendingRosterNotice = lazy(() => import('./PendingRosterNotice'));

// Only the login form is on the first screen; the rest loads when it is needed.
const RegisterForm = lazy(() => import('./RegisterForm'));
const ForcePasswordChange = lazy(() => import('./ForcePasswordChange'));
const VerificationDialog = lazy(() => import('./VerificationDialog'));
const TestLoginDialog = lazy(() => import('./TestLoginDialog'));
const TechSupportDialog = lazy(() => import('../support/TechSupportDialog'));

const loading = <PageLoading />;

export function LoginPage() {
  const productName = useProductName();
  const { data: config } = useAuthConfig();
  const testingEnabled = useSetting('testing_button_enabled').data === 'true';
  const setCurrentPilot = useSetCurrentPilot();
  const navigate = useNavigate();
  const [tab, setTab] = useState('login');
  // A roster file opened with the app waits here for the login (then the upload takes it).
  const [forced, setForced] = useState<Pilot | null>(null);
  const [verification, setVerification] = useState<PendingVerification | null>(null);
  const [testLoginOpen, setTestLoginOpen] = useState(false);
  const [supportOpen, setSupportOpen] = useState(false);
  const [loginPrefix, setLoginPrefix] = useState('');

  const completeLogin = (answer: LoginResponse) => {
    if (answer.forcePasswordChange) {
      setForced(answer.pilot);
      return;
    }
    setCurrentPilot(answer.pilot);
    navigate('/');
  };

  const afterVerified = (loggedIn: LoginResponse | null) => {
    setVerification(null);
    if (loggedIn) completeLogin(loggedIn);
    else setTab('login');
  };

  if (forced) {
    return (
      <main className="login-page">
        <section className="login-card">
          <Suspense fallback={loading}>
            <ForcePasswordChange
              pilot={forced}
              onDone={(pilot) => {
                setForced(null);
                setCurrentPilot(pilot);
                navigate('/');
              }}
            />
          </Suspense>
        </section>
      </main>
    );
  }

  return (
    <main className="login-page">
      <section className="login-card">
        <h1 className="login-title">{productName}</h1>
        <SessionBanners />
        <Suspense fallback={null}>
          <PendingRosterNotice />
        </Suspense>
        <SimpleTabs
          active={tab}
          onChange={setTab}
          tabs={[
            {
              key: 'login',
              label: 'Login',
              content: (
                <LoginForm
                  prefix={loginPrefix}
                  onPrefixChange={setLoginPrefix}
                  onLoggedIn={completeLogin}
                  onVerificationRequired={setVerification}
                />
              ),
            },
            {
              key: 'register',
              label: 'Register',
              content: (
                <Suspense fallback={loading}>
                  <RegisterForm
                    domain={config?.companyEmailDomain}
                    onVerificationRequired={setVerification}
                    onLoggedIn={completeLogin}
                    onRestored={(prefix) => {
                      setLoginPrefix(prefix);
                      setTab('login');
                    }}
                  />
                </Suspense>
              ),
            },
          ]}
        />
        {testingEnabled && (
          <div className="testing-row">
            <Button onClick={() => setTestLoginOpen(true)}>Testing</Button>
          </div>
        )}
        <div className="support-row">
          <Button type="link" icon={<CustomerServiceOutlined />} onClick={() => setSupportOpen(true)}>
            Tech Support Group
          </Button>
        </div>
      </section>
      <Suspense fallback={null}>
        {supportOpen && <TechSupportDialog onClose={() => setSupportOpen(false)} />}
        {verification && (
          <VerificationDialog
            pending={verification}
            onClose={() => setVerification(null)}
            onVerified={afterVerified}
          />
        )}
        {testLoginOpen && <TestLoginDialog onClose={() => setTestLoginOpen(false)} onLoggedIn={completeLogin} />}
      </Suspense>
    </main>
  );
}
