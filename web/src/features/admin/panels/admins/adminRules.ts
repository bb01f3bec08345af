import type { Admin, CurrentAdmin, Permission } from '@crewswap/proto';

export const PERMISSION_LABELS: Record<Permission, string> = {
  manage_pilots: 'Manage Pilots',
  manage_destinations: 'Manage Destinations (IATA Codes)',
  manage_admins: 'Manage Admins',
  view_analytics: 'View Analytics',
  manage_settings: 'Manage Settings (System Settings)',
  view_security_alerts: 'Security',
  manage_system: 'Manage System (Settings, Data Cleanup)',
  manage_swaps: 'Manage Swaps (Swap Requests)',
};

const holds = (me: CurrentAdmin, permission: Permission) => me.isMasterAdmin || me.permissions.includes(permission);

/** Add Admin: only with manage_admins. */
export const canAddAdmin = (me: CurrentAdmin) => holds(me, 'manage_admins');

/** Edit and set-password: a master admin, or manage_admins acting on an admin who is not a master. */
export const canEditAdmin = (me: CurrentAdmin, target: Admin) => me.isMasterAdmin || (holds(me, 'manage_admins') && !target.isMasterAdmin);

/** An initial password only for an admin who has never logged in. */
export const canSetPassword = (me: CurrentAdmin, target: Admin) => canEditAdmin(me, target) && target.lastLoginAt === null;

/** Never a master admin, never oneself. */
export const canDeleteAdmin = (me: CurrentAdmin, target: Admin) => holds(me, 'manage_admins') && !target.isMasterAdmin && target.id !== me.id;

export const PASSWORD_MISMATCH = 'Passwords do not match';
export const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
