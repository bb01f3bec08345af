import { useQueryClient } from '@tanstack/react-query';
import { Spin } from 'antd';
import { useEffect } from 'react';
import { Navigate, Outlet, Route, Routes, useNavigate } from 'react-router';
import { connectAdminSession } from './api/adminRequest';
import { useLoadFailuresTold } from './api/loadFailures';
import { useCurrentAdmin } from './api/session';
import { AdminLogin } from './AdminLogin';
import { AdminLayout } from './layout/AdminLayout';
import { PanelRoute } from './layout/PanelRoute';
import { Dashboard } from './home/Dashboard';
import './admin.css';

export function LoadingAdmin() {
  return (
    <div className="page-center admin-loading" role="status">
      <Spin />
      <span>Loading admin panel...</span>
    </div>
  );
}

/** `/admin` and everything under it: its own chunk, loaded only when an admin page is opened. */
export default function AdminConsole() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => connectAdminSession(queryClient, navigate), [queryClient, navigate]);
  useLoadFailuresTold();
  return (
    <Routes>
      <Route path="login" element={<LoginRoute />} />
      <Route element={<SignedIn />}>
        <Route index element={null} />
        <Route path=":resource" element={<PanelRoute />} />
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Route>
    </Routes>
  );
}

function LoginRoute() {
  const { data: admin, isLoading } = useCurrentAdmin();
  if (isLoading) return <LoadingAdmin />;
  return admin ? <Navigate to="/admin" replace /> : <AdminLogin />;
}

function SignedIn() {
  const { data: admin, isLoading } = useCurrentAdmin();
  if (isLoading) return <LoadingAdmin />;
  if (!admin) return <Navigate to="/admin/login" replace />;
  return (
    <AdminLayout admin={admin}>
      <Dashboard admin={admin} />
      <Outlet />
    </AdminLayout>
  );
}
