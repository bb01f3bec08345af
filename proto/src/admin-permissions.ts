import type { Permission } from './admin';
import { EMERGENCY_PERMISSIONS } from './admin-constants';
import { SETTINGS_READ_PERMISSIONS } from './settings';

/**
 * Who may call each admin route of every service: the one permission matrix. `anyOf`: an admin
 * holding any one of these (a master admin holds all seven); `anyAdmin`: any signed-in admin
 * (the spec gives Rosters no permission of its own); `master`: master admins only. PUT
 * /api/admin/settings/{key} follows `SETTING_PERMISSIONS` per key. Every service enforces its
 * rows; `services/gateway/test/permission-matrix.test.ts` checks them all against this table,
 * and that no admin route is missing from it.
 */
export type AdminRouteRule = { anyOf: readonly Permission[] } | { anyAdmin: true } | { master: true } | { perSetting: true };

const pilots = { anyOf: ['manage_pilots'] } as const;
const pilotsOrAnalytics = { anyOf: ['manage_pilots', 'view_analytics'] } as const;
const destinations = { anyOf: ['manage_destinations'] } as const;
const admins = { anyOf: ['manage_admins'] } as const;
const analytics = { anyOf: ['view_analytics'] } as const;
const system = { anyOf: ['manage_system'] } as const;
const swapDesk = { anyOf: ['manage_swaps'] } as const;
/** The Security panel's emergency card and restart: view_security_alerts (its menu) or manage_system. */
const emergency = { anyOf: EMERGENCY_PERMISSIONS } as const;

export const ADMIN_ROUTE_PERMISSIONS: Record<string, AdminRouteRule> = {
  // admin
  'GET /api/admin/current': { anyAdmin: true },
  'GET /api/admin/settings': { anyOf: SETTINGS_READ_PERMISSIONS },
  'PUT /api/admin/settings/:key': { perSetting: true },
  'GET /api/admin/admins': admins,
  'POST /api/admin/admins': admins,
  'PUT /api/admin/admins/:id': admins,
  'DELETE /api/admin/admins/:id': admins,
  'POST /api/admin/admins/:id/set-password': admins,
  'GET /api/admin/activity-log': { master: true },
  'GET /api/admin/emergency-status': emergency,
  'POST /api/admin/emergency-shutdown': emergency,
  'POST /api/admin/resume-operations': emergency,
  'POST /api/admin/restart-server': emergency,
  'GET /api/admin/cleanup/config': system,
  'POST /api/admin/cleanup/config': system,
  'GET /api/admin/cleanup/history': system,
  'POST /api/admin/cleanup/run': system,
  'GET /api/admin/cleanup/preview': system,
  // auth
  'GET /api/admin/pilots': pilots,
  'PATCH /api/admin/pilots/:id': pilots,
  'DELETE /api/admin/pilots/:id': pilots,
  'PATCH /api/admin/pilots/:id/password': pilots,
  'GET /api/admin/sessions/active': pilotsOrAnalytics,
  'GET /api/admin/sessions/history': pilotsOrAnalytics,
  'GET /api/admin/recent-registrations': pilotsOrAnalytics,
  'GET /api/admin/cleanup/deleted-pilots': system,
  'DELETE /api/admin/cleanup/deleted-pilots/:id': system,
  // trips
  'GET /api/admin/iata-codes': destinations,
  'POST /api/admin/iata-codes': destinations,
  'PATCH /api/admin/iata-codes/:id': destinations,
  'DELETE /api/admin/iata-codes/:id': destinations,
  'GET /api/admin/excluded-airports': destinations,
  'POST /api/admin/excluded-airports': destinations,
  'DELETE /api/admin/excluded-airports/:id': destinations,
  'GET /api/admin/analytics': analytics,
  'GET /api/admin/analytics/comprehensive': analytics,
  'GET /api/admin/analytics/swap-breakdown': analytics,
  'GET /api/admin/swaps/proposal-stats': analytics,
  'GET /api/admin/swap-requests': swapDesk,
  'POST /api/admin/swap-requests/:id/approve': swapDesk,
  'POST /api/admin/swap-requests/:id/refuse': swapDesk,
  // roster-ingest
  'GET /api/admin/roster-history': { anyAdmin: true },
  'GET /api/admin/roster-history/stats': { anyAdmin: true },
};
