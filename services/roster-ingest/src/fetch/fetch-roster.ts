import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { ROSTER_FETCH_MAX_BYTES, ROSTER_FETCH_MESSAGES } from '@crewswap/proto';

/**
 * Fetches a roster address on a pilot's word, so it must not be turned against the cluster:
 * https only, every address the name resolves to checked (private, loopback, link-local,
 * unique-local, site-local, metadata and addresses that carry an IPv4 one (IPv4-mapped, NAT64,
 * 6to4) refused unless their `host:port` is allowed), the connection pinned
 * to the address that was checked (no second lookup a rebinding DNS could answer differently), at
 * most 3 redirects each checked again, one time limit over all of it, and the answer streamed with
 * a cap (cut off and refused, never buffered whole).
 */

export type FetchFailure = 'address' | 'private' | 'redirects' | 'timeout' | 'too_large' | 'status' | 'unreachable';

/** A roster address that was not fetched, or whose answer was refused; the message says why in the pilot's words. */
export class FetchRefused extends Error {
  constructor(
    readonly reason: FetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'FetchRefused';
  }
}

export interface FetchRosterOptions {
  /** `host:port` (lower case; IPv6 in brackets) that may be private or plain http. */
  allowedHosts: readonly string[];
  timeoutMs: number;
  maxBytes?: number;
  /** Every address a name resolves to; the system resolver unless a test answers. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

/** What the last fetch saw, for a conditional GET. */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export type Fetched =
  | { notModified: true }
  | { notModified: false; text: string; sizeBytes: number; contentType: string | null; etag: string | null; lastModified: string | null };

const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// Two lists: one list would also match every IPv4 address against the IPv4-mapped IPv6 range.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT; also Alibaba's metadata address
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, and the clouds' metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, and IPv4-compatible (::7f00:1 is 127.0.0.1, ::a9fe:a9fe the metadata address)
  ['::ffff:0:0', 96], // IPv4-mapped: would reach any IPv4 address
  ['64:ff9b::', 96], // NAT64: likewise
  ['64:ff9b:1::', 48], // NAT64 for local use: likewise
  ['100::', 64],
  ['2001::', 32], // Teredo: carries an IPv4 address too
  ['2002::', 16], // 6to4: carries an IPv4 address (2002:7f00:1:: is 127.0.0.1's), and a relay would reach it
  ['fc00::', 7], // unique-local, among them AWS's metadata address fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local: deprecated, still private where it is used
  ['ff00::', 8],
] as const)
  blocked6.addSubnet(network, prefix, 'ipv6');

export const isPrivateAddress = (address: string): boolean => (isIP(address) === 6 ? blocked6.check(address, 'ipv6') : blocked4.check(address, 'ipv4'));

/** The address as a pilot pasted it, read as a URL: `webcal://` is read as `https://`. */
export function rosterUrl(raw: string): URL {
  const text = raw.trim().replace(/^webcals?:\/\//i, 'https://');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchRefused('address', ROSTER_FETCH_MESSAGES.notAnAddress);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new FetchRefused('address', ROSTER_FETCH_MESSAGES.notAnAddress);
  if (!url.hostname) throw new FetchRefused('address', ROSTER_FETCH_MESSAGES.notAnAddress);
  return url;
}

const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');
const hostPort = (host: string, port: string) => `${isIP(host) === 6 ? `[${host}]` : host}:${port}`.toLowerCase();

/** Fetches `raw` (with the validators of the last fetch, for a 304), following at most 3 redirects. */
export async function fetchRoster(raw: string, validators: Validators, options: FetchRosterOptions): Promise<Fetched> {
  const maxBytes = options.maxBytes ?? ROSTER_FETCH_MAX_BYTES;
  const deadline = Date.now() + options.timeoutMs;
  const timeout = () => new FetchRefused('timeout', ROSTER_FETCH_MESSAGES.timeout(Math.round(options.timeoutMs / 1000)));
  const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5', 'accept-encoding': 'identity', 'user-agent': 'CrewSwap roster fetch' };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;

  let url = rosterUrl(raw);
  for (let redirects = 0; ; redirects++) {
    const pinned = await checkedAddress(url, options, deadline, timeout);
    const answer = await get(url, pinned, headers, deadline - Date.now(), maxBytes, timeout);
    if (REDIRECTS.has(answer.status) && answer.headers.location) {
      if (redirects === MAX_REDIRECTS) throw new FetchRefused('redirects', ROSTER_FETCH_MESSAGES.tooManyRedirects);
      try {
        url = rosterUrl(new URL(answer.headers.location, url).toString());
      } catch {
        throw new FetchRefused('address', ROSTER_FETCH_MESSAGES.notAnAddress);
      }
      continue;
    }
    if (answer.status === 304 && (validators.etag || validators.lastModified)) return { notModified: true };
    if (answer.status < 200 || answer.status >= 300 || answer.text === undefined) throw new FetchRefused('status', ROSTER_FETCH_MESSAGES.status(answer.status));
    const header = (name: string) => {
      const value = answer.headers[name];
      return typeof value === 'string' ? value : null;
    };
    return { notModified: false, text: answer.text, sizeBytes: answer.size, contentType: header('content-type'), etag: header('etag'), lastModified: header('last-modified') };
  }
}

/**
 * Every address the URL's host resolves to, checked; the first is the one connected to. A name
 * that resolves to a private address anywhere among its answers is refused: the connection could
 * otherwise be steered to it.
 */
async function checkedAddress(url: URL, options: FetchRosterOptions, deadline: number, timeout: () => FetchRefused): Promise<{ address: string; family: number }> {
  const host = bare(url.hostname);
  const port = portOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    const resolve = options.resolve ?? ((name: string) => dnsLookup(name, { all: true, verbatim: true }));
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        resolve(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(timeout()), Math.max(0, deadline - Date.now()));
        }),
      ]);
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      throw new FetchRefused('address', ROSTER_FETCH_MESSAGES.unknownHost);
    } finally {
      clearTimeout(timer);
    }
  }
  if (addresses.length === 0) throw new FetchRefused('address', ROSTER_FETCH_MESSAGES.unknownHost);
  const allowed = new Set(options.allowedHosts);
  const listed = (address: string) => allowed.has(hostPort(host, port)) || allowed.has(hostPort(address, port));
  for (const { address } of addresses) if (isPrivateAddress(address) && !listed(address)) throw new FetchRefused('private', ROSTER_FETCH_MESSAGES.privateAddress);
  if (url.protocol === 'http:' && !addresses.every(({ address }) => listed(address))) throw new FetchRefused('address', ROSTER_FETCH_MESSAGES.httpsOnly);
  return addresses[0]!;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text: only of a 2xx answer. */
  text?: string;
  size: number;
}

/** One GET to the pinned address; a 2xx body is read up to `maxBytes`, and past it the connection is cut. */
function get(url: URL, pinned: { address: string; family: number }, headers: Record<string, string>, remainingMs: number, maxBytes: number, timeout: () => FetchRefused): Promise<Answer> {
  if (remainingMs <= 0) return Promise.reject(timeout());
  return new Promise<Answer>((resolve, reject) => {
    const host = bare(url.hostname);
    // The connection goes to the address that was checked, whatever the name would resolve to now.
    const lookup = ((_name: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      lookupOptions.all ? callback(null, [pinned]) : callback(null, pinned.address, pinned.family)) as unknown as LookupFunction;
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request({
      hostname: host,
      port: portOf(url),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { ...headers, host: url.host },
      agent: false,
      lookup,
      ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
      ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
    });
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish();
    };
    const fail = (error: FetchRefused) => {
      settle(() => reject(error));
      request.destroy();
    };
    const timer = setTimeout(() => fail(timeout()), remainingMs);

    request.on('error', () => fail(new FetchRefused('unreachable', ROSTER_FETCH_MESSAGES.unreachable)));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        settle(() => resolve({ status, headers: response.headers, size: 0 }));
        request.destroy();
        return;
      }
      const encoding = response.headers['content-encoding'];
      if (encoding && encoding.toLowerCase() !== 'identity') return fail(new FetchRefused('status', ROSTER_FETCH_MESSAGES.status(status)));
      if (Number(response.headers['content-length']) > maxBytes) return fail(new FetchRefused('too_large', ROSTER_FETCH_MESSAGES.tooLarge));
      const decoder = new StringDecoder('utf8');
      const pieces: string[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(new FetchRefused('too_large', ROSTER_FETCH_MESSAGES.tooLarge));
        pieces.push(decoder.write(chunk));
      });
      response.on('end', () => settle(() => resolve({ status, headers: response.headers, text: pieces.join('') + decoder.end(), size })));
      response.on('error', () => fail(new FetchRefused('unreachable', ROSTER_FETCH_MESSAGES.unreachable)));
      response.on('aborted', () => fail(new FetchRefused('unreachable', ROSTER_FETCH_MESSAGES.unreachable)));
    });
    request.end();
  });
}
