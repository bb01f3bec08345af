import type { RuleObject } from 'antd/es/form';
import { TECH_SUPPORT_LINK_MESSAGE, WHATSAPP_INVITE_LINK } from '@crewswap/proto/browser';

const email: RuleObject[] = [{ type: 'email', message: 'Please enter a valid email address' }];

/** System Settings' checks in the spec's words (section 5); the server repeats every one. */
export const SYSTEM_RULES = {
  interbids_url: [
    {
      validator: (_: unknown, value: string | undefined) => {
        try {
          const url = new URL(value ?? '');
          if (url.protocol === 'http:' || url.protocol === 'https:') return Promise.resolve();
        } catch {
          // falls through to the message
        }
        return Promise.reject(new Error('Please enter a valid URL'));
      },
    },
  ] satisfies RuleObject[],
  swap_search_days: [
    {
      validator: (_: unknown, value: string | number | undefined) => {
        const days = Number(value);
        if (value === '' || value === undefined || value === null || !Number.isFinite(days) || days < 1) return Promise.reject(new Error('Must be at least 1 day'));
        if (days > 30) return Promise.reject(new Error('Cannot exceed 30 days'));
        return Promise.resolve();
      },
    },
  ] satisfies RuleObject[],
  upload_email: [{ required: true, message: 'Please enter a valid email address' }, ...email],
  outgoing_email: [{ required: true, message: 'Please enter a valid email address' }, ...email],
  user_guide_path: [{ required: true, whitespace: true, message: 'User guide path is required' }] satisfies RuleObject[],
  // Blank hides the pilots' Tech Support Group join button; anything else must be an invite link.
  tech_support_whatsapp_url: [
    {
      validator: (_: unknown, value: string | undefined) => {
        const link = (value ?? '').trim();
        return link === '' || WHATSAPP_INVITE_LINK.test(link) ? Promise.resolve() : Promise.reject(new Error(TECH_SUPPORT_LINK_MESSAGE));
      },
    },
  ] satisfies RuleObject[],
  // Blank sends crewing requests to the two pilots only.
  crewing_email: [{ type: 'email', message: 'Please enter a valid email address' }] satisfies RuleObject[],
};

/** Security's checks (section 5). */
export const SECURITY_RULES = {
  session_timeout_minutes: [
    {
      validator: (_: unknown, value: string | number | undefined) => {
        const minutes = Number(value);
        if (!Number.isFinite(minutes) || minutes < 5) return Promise.reject(new Error('Must be at least 5 minutes'));
        if (minutes > 1440) return Promise.reject(new Error('Cannot exceed 24 hours (1440 minutes)'));
        return Promise.resolve();
      },
    },
  ] satisfies RuleObject[],
  daily_access_code: [{ required: true, whitespace: true, message: 'Daily access code is required' }] satisfies RuleObject[],
  access_code_path: [{ required: true, whitespace: true, message: 'Access code path is required' }] satisfies RuleObject[],
  access_code_email: [{ required: true, message: 'Please enter a valid email address' }, ...email],
};
