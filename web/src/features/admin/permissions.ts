import type { CurrentAdmin, Permission } from '@crewswap/proto';

type Holder = Pick<CurrentAdmin, 'isMasterAdmin' | 'permissions'>;

/** A master admin may do everything; others need one of the listed permissions (none listed: anyone). */
export function hasPermission(admin: Holder, needed: readonly Permission[]): boolean {
  return admin.isMasterAdmin || needed.length === 0 || needed.some((permission) => admin.permissions.includes(permission));
}

/** Whether the admin may open a resource of the console's list (kept apart from the list, which imports the panels). */
export function canOpen(admin: Holder, resource: { permissions: readonly Permission[] }): boolean {
  return hasPermission(admin, resource.permissions);
}
