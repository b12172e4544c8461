import type { Response } from 'express';
import { enterRequestContext } from '../context/request-context';
import { TenantContext, TenantScope } from '../context/tenant-context';
import type { ApiRequest } from '../http/request';
import { JsonLogger } from './json-logger';

/** A logger whose lines are kept, parsed. */
function capture(levels: ConstructorParameters<typeof JsonLogger>[0] = ['error', 'warn', 'log']) {
  const lines: Record<string, unknown>[] = [];
  const logger = new JsonLogger(levels, {
    write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

const request = (extra: Partial<ApiRequest> = {}) =>
  ({
    id: 'req_0123',
    principal: { tenantId: 'b3c0…', tenantSlug: 'grace' },
    route: { path: '/v1/members/:id' },
    ...extra,
  }) as unknown as ApiRequest;

describe('JsonLogger', () => {
  it('writes one object a line: level, time, context and msg', () => {
    const { logger, lines } = capture();
    logger.log('started', 'Main');
    logger.warn('Redis away', 'RateLimit');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        context: 'Main',
        msg: 'started',
      }),
      expect.objectContaining({ level: 'warn', context: 'RateLimit', msg: 'Redis away' }),
    ]);
    expect(lines[0]).not.toHaveProperty('request_id');
  });

  it("inside a request, a line carries the request's id, church (slug) and route template", () => {
    const { logger, lines } = capture();
    enterRequestContext(request(), {} as Response, () => logger.warn('something', 'Members'));
    expect(lines[0]).toEqual(
      expect.objectContaining({ msg: 'something', request_id: 'req_0123', tenant: 'grace', route: '/v1/members/:id' }),
    );
  });

  it('the context follows the request across awaits', async () => {
    const { logger, lines } = capture();
    await new Promise<void>((done) =>
      enterRequestContext(request({ principal: undefined }), {} as Response, () => {
        void Promise.resolve()
          .then(() => new Promise((r) => setTimeout(r, 1)))
          .then(() => logger.log('later'))
          .then(done);
      }),
    );
    expect(lines[0]).toEqual(expect.objectContaining({ msg: 'later', request_id: 'req_0123' }));
    expect(lines[0]).not.toHaveProperty('tenant'); // not authenticated (yet)
  });

  it('inside a job, a line carries its church', async () => {
    const { logger, lines } = capture();
    const scope = { tenantId: 'tenant-uuid', afterCommit: [] } as unknown as TenantScope;
    await TenantContext.run(scope, async () => logger.log('sent', 'Mail'));
    expect(lines[0]).toEqual(expect.objectContaining({ msg: 'sent', tenant: 'tenant-uuid' }));
  });

  it("an error's stack is a field; levels below the configured ones are not written", () => {
    const { logger, lines } = capture(['error']);
    logger.log('not written');
    logger.error('request failed', 'Error: boom\n    at x', 'ExceptionsHandler');
    logger.error(new Error('kaput'));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        context: 'ExceptionsHandler',
        msg: 'request failed',
        stack: 'Error: boom\n    at x',
      }),
      expect.objectContaining({
        level: 'error',
        msg: 'kaput',
        error: expect.objectContaining({ type: 'Error', message: 'kaput' }),
      }),
    ]);
  });
});
