import { Button, Result, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import type { AccessCodeResponse } from '@crewswap/proto';
import { request } from '../../api/client';
import { formatNumericDate } from '../../shared/format';

/**
 * Any other path: 'Page Not Found', unless it is the admin's access code path and the visitor is
 * signed in (administrator or pilot), who then sees the daily access code to hand on.
 */
export default function NotFound() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const access = useQuery({
    queryKey: ['access-code', pathname],
    // A refusal of any kind (no session, another path) is simply the not-found page.
    queryFn: () =>
      request<AccessCodeResponse | null>(`/api/access-code?path=${encodeURIComponent(pathname)}`, { nullOn401: true, pilotSession: false }).catch(() => null),
  });
  if (access.isLoading) {
    return (
      <main className="page-center" role="status">
        <Spin />
      </main>
    );
  }
  if (access.data) {
    return (
      <main className="page-center">
        <Result
          status="info"
          title="Daily Access Code"
          subTitle={`Updated ${formatNumericDate(access.data.updatedAt)} ${access.data.updatedAt.slice(11, 16)} UTC. Pilots enter it in VS Pilot Verification.`}
          extra={
            <Typography.Text copyable strong className="access-code">
              {access.data.code}
            </Typography.Text>
          }
        />
      </main>
    );
  }
  return (
    <main className="page-center">
      <Result
        status="404"
        title="Page Not Found"
        subTitle="The page you are looking for does not exist."
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            Go to My Trips
          </Button>
        }
      />
    </main>
  );
}
