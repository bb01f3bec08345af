import {
  ApiOutlined,
  BarChartOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  EnvironmentOutlined,
  SafetyOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import type { Permission } from '@crewswap/proto';

export interface AdminResource {
  /** The path under /admin and the key the menu and permission checks use. */
  name: string;
  /** The menu item's and the dialog's title. */
  label: string;
  icon: ReactNode;
  /** Any one of these lets an admin in; none listed means every admin (Rosters). */
  permissions: readonly Permission[];
  /** Listed in the menu, or reached from the dashboard's cards only. */
  menu: boolean;
  panel: LazyExoticComponent<ComponentType>;
}

/**
 * The one list the console is built from: the menu, the routes (`/admin/<name>`) and who may open
 * what. The menu is the spec's (section 6 maps each item to its permission); the dashboard's cards
 * open the panels that are not in it.
 */
export const RESOURCES: readonly AdminResource[] = [
  {
    name: 'pilots',
    label: 'Manage Pilots',
    icon: <UserOutlined />,
    permissions: ['manage_pilots'],
    menu: true,
    panel: lazy(() => import('./panels/pilots/PilotsPanel')),
  },
  {
    name: 'swap-requests',
    label: 'Swap Requests',
    icon: <SwapOutlined />,
    permissions: ['manage_swaps'],
    menu: true,
    panel: lazy(() => import('./panels/swap-requests/SwapRequestsPanel')),
  },
  {
    name: 'rosters',
    label: 'Rosters',
    icon: <CloudUploadOutlined />,
    permissions: [],
    menu: true,
    panel: lazy(() => import('./panels/rosters/RostersPanel')),
  },
  {
    name: 'iata-codes',
    label: 'IATA Codes',
    icon: <EnvironmentOutlined />,
    permissions: ['manage_destinations'],
    menu: true,
    panel: lazy(() => import('./panels/airports/AirportsPanel')),
  },
  {
    name: 'admins',
    label: 'Manage Admins',
    icon: <TeamOutlined />,
    permissions: ['manage_admins'],
    menu: true,
    panel: lazy(() => import('./panels/admins/AdminsPanel')),
  },
  {
    name: 'settings',
    label: 'System Settings',
    icon: <SettingOutlined />,
    // As the server grants them (proto's SETTING_PERMISSIONS): manage_settings is named for these.
    permissions: ['manage_system', 'manage_settings'],
    menu: true,
    panel: lazy(() => import('./panels/settings/SystemSettingsPanel')),
  },
  {
    name: 'security',
    label: 'Security',
    icon: <SafetyOutlined />,
    permissions: ['view_security_alerts'],
    menu: true,
    panel: lazy(() => import('./panels/security/SecurityPanel')),
  },
  {
    name: 'cleanup',
    label: 'Data Cleanup',
    icon: <DeleteOutlined />,
    permissions: ['manage_system'],
    menu: true,
    panel: lazy(() => import('./panels/cleanup/CleanupPanel')),
  },
  {
    name: 'analytics',
    label: 'Trip Analytics by Fleet & Rank',
    icon: <BarChartOutlined />,
    permissions: ['view_analytics'],
    menu: false,
    panel: lazy(() => import('./panels/analytics/AnalyticsPanel')),
  },
  {
    name: 'sessions',
    label: 'Active Sessions',
    icon: <ApiOutlined />,
    permissions: ['manage_pilots', 'view_analytics'],
    menu: false,
    panel: lazy(() => import('./panels/sessions/SessionsPanel')),
  },
];

export function resourceNamed(name: string | undefined): AdminResource | undefined {
  return RESOURCES.find((resource) => resource.name === name);
}
