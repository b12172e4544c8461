import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { BoundedMap } from '../../../common/caching/bounded-map';
import { guardedLookup, isAllowedAddress } from '../url-guard';

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** Only a 2xx within the time-out succeeds (a 3xx is not followed). */
export function succeeded(result: PostResult): boolean {
  return result.error === null && result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

/** What an attempt's log says went wrong: null on success, else the network error or `HTTP <status>`. */
export function attemptError(result: PostResult): string | null {
  return succeeded(result) ? null : (result.error ?? `HTTP ${result.statusCode}`);
}

/**
 * Origins with an agent at most. Past it the oldest agent is dropped: requests in flight on it
 * finish, and its idle sockets close after the agent's time-out.
 */
export const MAX_AGENTS = 1_000;
const agents = new BoundedMap<string, HttpAgent>(MAX_AGENTS);

/** How many origins have an agent now (at most MAX_AGENTS). */
export const agentCount = (): number => agents.size;
/**
 * Connections to one origin. Many churches' endpoints can share an origin (an integration
 * platform), so this is wider than the per-endpoint limit of the runner, which is what keeps one
 * church from taking every slot.
 */
const PER_ORIGIN = 32;

/**
 * One keep-alive agent per origin (and loopback policy), at most PER_ORIGIN connections to it:
 * deliveries reuse connections instead of a TCP (and TLS) handshake each. The address check runs
 * when a connection is opened.
 */
function agentFor(target: ParsedTarget, allowLoopback: boolean): HttpAgent {
  const key = `${target.origin}|${allowLoopback}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = {
      keepAlive: true,
      maxSockets: PER_ORIGIN,
      maxFreeSockets: PER_ORIGIN,
      timeout: 30_000,
      lookup: guardedLookup(allowLoopback) as never,
    };
    agent = target.options.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** A URL's request options, parsed once; or why nothing may be sent to it. */
type ParsedTarget = { origin: string; options: RequestOptions; send: typeof httpRequest };
type Target = ParsedTarget | { refused: string };

/** The URLs posted to lately (one per endpoint), parsed and checked once rather than per delivery. */
const targets = new BoundedMap<string, Target>(10_000);

function targetFor(url: string, allowLoopback: boolean): Target {
  const key = `${allowLoopback}|${url}`;
  let target = targets.get(key);
  if (!target) {
    const parsed = new URL(url);
    // Node skips the lookup for a literal IP, so the connect-time check is made here.
    const literal = parsed.hostname.replace(/^\[|\]$/g, '');
    target =
      isIP(literal) && !isAllowedAddress(literal, allowLoopback)
        ? { refused: `refused address ${literal}` }
        : {
            origin: parsed.origin,
            options: urlToHttpOptions(parsed),
            send: parsed.protocol === 'https:' ? httpsRequest : httpRequest,
          };
    targets.set(key, target);
  }
  return target;
}

/**
 * POSTs a webhook. The whole exchange must finish within `timeoutMs`; redirects are not followed
 * (a 3xx is a failure); the address is checked again at connect time (no private targets).
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  allowLoopback: boolean,
  method = 'POST',
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const target = targetFor(url, allowLoopback);
    if ('refused' in target) {
      resolve({ statusCode: null, durationMs: elapsed(), error: target.refused });
      return;
    }
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = target.send(
      {
        ...target.options,
        method,
        headers: method === 'POST' ? { ...headers, 'Content-Length': Buffer.byteLength(body) } : headers,
        agent: agentFor(target, allowLoopback),
      },
      (res) => {
        res.resume(); // the answer's body is not used; drain it so the socket closes
        res.on('end', () => finish({ statusCode: res.statusCode ?? null, error: null }));
        res.on('error', (error) => finish({ statusCode: res.statusCode ?? null, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timeout after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => finish({ statusCode: null, error: error.message }));
    req.end(method === 'POST' ? body : undefined);
  });
}
