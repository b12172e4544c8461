import { AppError } from '../../common/errors/app-error';
import { toProblem } from '../../common/errors/problem';
import { assertWebhookUrl, HostLookup, isAllowedAddress } from './url-guard';

const never: HostLookup = () => new Promise<string[]>(() => undefined);
const answers =
  (addresses: string[], afterMs = 0): HostLookup =>
  () =>
    new Promise((resolve) => setTimeout(resolve, afterMs, addresses));

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('assertWebhookUrl: the DNS lookup is bounded', () => {
  afterEach(() => jest.useRealTimers());

  it('a resolver that never answers is a 422 invalid_webhook_url "host did not resolve in time" once the bound passes', async () => {
    const started = Date.now();
    const error = await refusal(
      assertWebhookUrl('https://hooks.example.org/in', false, { lookup: never, timeoutMs: 50 }),
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({
      code: 'invalid_webhook_url',
      status: 422,
      params: { reason: 'host did not resolve in time' },
      errors: [{ field: 'url', issue: 'invalid' }],
    });
    expect(toProblem(error, 'en', 'req_test').detail).toBe(
      'The webhook URL must be https and reach a public address (host did not resolve in time).',
    );
  });

  it('waits 3 s by default, then refuses, and leaves no timer behind', async () => {
    jest.useFakeTimers();
    let settled = false;
    const result = refusal(assertWebhookUrl('https://hooks.example.org/in', false, { lookup: never })).finally(
      () => (settled = true),
    );
    await jest.advanceTimersByTimeAsync(2_999);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect((await result).params).toEqual({ reason: 'host did not resolve in time' });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a resolver that answers in time with a public address passes, and the bound is cleared', async () => {
    jest.useFakeTimers();
    const result = assertWebhookUrl('https://hooks.example.org/in', false, {
      lookup: answers(['93.184.216.34'], 100),
      timeoutMs: 3_000,
    });
    await jest.advanceTimersByTimeAsync(100);
    await expect(result).resolves.toEqual(new URL('https://hooks.example.org/in'));
    expect(jest.getTimerCount()).toBe(0);
  });

  it('an IPv4-compatible IPv6 address (::/96) is refused, whatever IPv4 address it carries', () => {
    for (const address of ['::a00:1', '::7f00:1', '::5db8:d822', '::', '::1'])
      expect({ address, allowed: isAllowedAddress(address, false) }).toEqual({ address, allowed: false });
    expect(isAllowedAddress('2606:2800:220:1::248', false)).toBe(true);
  });

  it('a resolver that answers in time with a private or loopback address is still refused', async () => {
    for (const address of ['10.0.0.7', '127.0.0.1', '169.254.169.254', 'fd00::1']) {
      const error = await refusal(
        assertWebhookUrl('https://hooks.example.org/in', false, { lookup: answers([address]), timeoutMs: 1_000 }),
      );
      expect({ address, code: error.code, reason: error.params.reason }).toEqual({
        address,
        code: 'invalid_webhook_url',
        reason: 'private, loopback or link-local address',
      });
    }
  });

  it('a resolver that fails (NXDOMAIN) is "host does not resolve", not a time-out', async () => {
    const nxdomain: HostLookup = () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const error = await refusal(
      assertWebhookUrl('https://nowhere.invalid/in', false, { lookup: nxdomain, timeoutMs: 1_000 }),
    );
    expect(error.params).toEqual({ reason: 'host does not resolve' });
  });

  it('an IP literal needs no lookup', async () => {
    const lookup = jest.fn(never);
    await expect(
      assertWebhookUrl('https://93.184.216.34/in', false, { lookup, timeoutMs: 10 }),
    ).resolves.toBeInstanceOf(URL);
    expect(lookup).not.toHaveBeenCalled();
  });
});
