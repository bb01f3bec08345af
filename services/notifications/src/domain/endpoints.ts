import { badRequest } from '@crewswap/kit';

export const ENDPOINT_NOT_ALLOWED = 'This push service is not supported. Please use an up-to-date browser.';

/**
 * Push-sender POSTs to whatever endpoint a subscription names, so only the browsers' push services
 * are accepted (and loopback http where tests and benchmarks run their own push service).
 */
export function checkEndpoint(endpoint: string, policy: { hosts: readonly string[]; allowLocal: boolean }): void {
  const url = new URL(endpoint);
  const host = url.hostname.toLowerCase();
  const local = host === '127.0.0.1' || host === 'localhost';
  if (local && policy.allowLocal) return;
  const known = url.protocol === 'https:' && policy.hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
  if (!known) throw badRequest(ENDPOINT_NOT_ALLOWED, { fields: { endpoint: ENDPOINT_NOT_ALLOWED } });
}
