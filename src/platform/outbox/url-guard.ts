import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { promisify } from 'node:util';
import { AppError } from '../../common/errors/app-error';

const lookupAll = promisify(dnsLookup);

/** Resolves a host to its addresses; the real one is getaddrinfo, which waits for the resolver's own time-outs. */
export type HostLookup = (host: string) => Promise<string[]>;

const systemLookup: HostLookup = (host) =>
  lookupAll(host, { all: true }).then((list: LookupAddress[]) => list.map((a) => a.address));

/** How long saving an endpoint waits for DNS before refusing the URL. */
export const LOOKUP_TIMEOUT_MS = 3_000;

const TIMED_OUT = Symbol('timed out');

/** The host's addresses ([] if it does not resolve), or TIMED_OUT when the resolver does not answer within `timeoutMs`. */
async function resolveWithin(
  host: string,
  lookup: HostLookup,
  timeoutMs: number,
): Promise<string[] | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(resolve, timeoutMs, TIMED_OUT)));
  try {
    return await Promise.race([lookup(host).catch(() => [] as string[]), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // ::/96: the unspecified and loopback addresses and the deprecated IPv4-compatible ones (::10.0.0.1).
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Is this address one a webhook may be sent to? Loopback only with WEBHOOK_ALLOW_LOOPBACK (tests). */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const mapped =
    address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (allowLoopback && isLoopback(mapped)) return true;
  const family = isIP(mapped) === 6 ? 'ipv6' : 'ipv4';
  return !PRIVATE.check(mapped, family);
}

/**
 * Checks a webhook URL when an endpoint is saved: https (http only to loopback in tests), no
 * credentials, and every address its host resolves to is public. 422 invalid_webhook_url otherwise.
 * The DNS lookup is bounded (3 s), so unreachable resolvers cannot hold the request; `lookup` and
 * `timeoutMs` are replaceable for tests.
 */
export async function assertWebhookUrl(
  raw: string,
  allowLoopback: boolean,
  { lookup = systemLookup, timeoutMs = LOOKUP_TIMEOUT_MS }: { lookup?: HostLookup; timeoutMs?: number } = {},
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('invalid_webhook_url', { reason: 'not a URL' }, [
      { field: 'url', issue: 'invalid_format', params: { format: 'https URL' } },
    ]);
  }
  const refuse = (reason: string) =>
    new AppError('invalid_webhook_url', { reason }, [{ field: 'url', issue: 'invalid', params: {} }]);
  if (url.username || url.password) throw refuse('credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolveWithin(host, lookup, timeoutMs);
  if (addresses === TIMED_OUT) throw refuse('host did not resolve in time');
  if (addresses.length === 0) throw refuse('host does not resolve');
  const loopbackOnly = addresses.every((a) => isLoopback(a));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback && loopbackOnly))
    throw refuse('https required');
  if (!addresses.every((a) => isAllowedAddress(a, allowLoopback)))
    throw refuse('private, loopback or link-local address');
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses private addresses at connect time, so a DNS answer
 * that changes after the endpoint was saved (rebinding) cannot reach the internal network.
 */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, []);
      const refused = list.find((a) => !isAllowedAddress(a.address, allowLoopback));
      if (refused)
        return callback(
          Object.assign(new Error(`refused address ${refused.address}`), { code: 'EADDRNOTALLOWED' }),
          [],
        );
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
