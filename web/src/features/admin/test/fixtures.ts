import type { Admin, CurrentAdmin, Setting } from '@crewswap/proto';

export const MASTER: CurrentAdmin = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Ada Master',
  email: 'admin@crewswap.local',
  isMasterAdmin: true,
  permissions: [],
};

export const OPS: CurrentAdmin = {
  id: '00000000-0000-4000-8000-000000000002',
  name: 'Olive Ops',
  email: 'ops@crewswap.local',
  isMasterAdmin: false,
  permissions: ['manage_pilots', 'view_analytics'],
};

export const NEW_ADMIN: Admin = {
  id: '00000000-0000-4000-8000-000000000003',
  name: 'Nia New',
  email: 'nia@crewswap.local',
  phone: null,
  jobTitle: null,
  isMasterAdmin: false,
  permissions: ['manage_pilots'],
  lastLoginAt: null,
};

const at = '2026-11-20T10:00:00Z';
export const SETTINGS: Setting[] = [
  { key: 'interbids_url', value: 'https://interbids.example-airline.test', updated_at: at },
  { key: 'swap_search_days', value: '4', updated_at: at },
  { key: 'upload_email', value: 'roster-upload@crewswap.local', updated_at: at },
  { key: 'outgoing_email', value: 'noreply@crewswap.local', updated_at: at },
  { key: 'user_guide_path', value: '/user-guide.pdf', updated_at: at },
];

/** The Security panel's settings (the System Settings ones above are there too in a real list). */
export const SECURITY_SETTINGS: Setting[] = [
  { key: 'session_timeout_minutes', value: '30', updated_at: at },
  { key: 'email_verification_enabled', value: 'true', updated_at: at },
  { key: 'testing_button_enabled', value: 'false', updated_at: at },
  { key: 'daily_access_code', value: '123456', updated_at: at },
  { key: 'access_code_path', value: '/access-code', updated_at: at },
  { key: 'access_code_email', value: 'access@crewswap.local', updated_at: at },
];
