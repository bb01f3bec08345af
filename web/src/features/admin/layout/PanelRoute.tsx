import { Spin } from 'antd';
import { Suspense } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { AppModal } from '../../../shared/AppModal';
import { useCurrentAdmin } from '../api/session';
import { canOpen } from '../permissions';
import { resourceNamed } from '../resources';

/**
 * `/admin/<resource>`: the resource's panel in a large dialog titled as its menu item, over the
 * dashboard. A panel the admin may not open (or no such panel) goes back to the dashboard.
 */
export function PanelRoute() {
  const { resource: name } = useParams();
  const navigate = useNavigate();
  const { data: admin } = useCurrentAdmin();
  const resource = resourceNamed(name);
  if (!resource || !admin || !canOpen(admin, resource)) return <Navigate to="/admin" replace />;
  const Panel = resource.panel;
  return (
    <AppModal title={resource.label} width={1200} onCancel={() => navigate('/admin')} className="admin-panel-modal">
      <Suspense
        fallback={
          <div className="page-center" role="status">
            <Spin />
          </div>
        }
      >
        <Panel />
      </Suspense>
    </AppModal>
  );
}
