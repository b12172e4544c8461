import { Logger } from '@nestjs/common';
import { TestApi } from '../support/api';

/** TypeORM's messages go through Nest's logger (LOG_LEVEL), and a failed query never logs its parameters. */
describe('query logging', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('a failed query is a debug line with its SQL and error, without the parameters, and nothing on the console', async () => {
    const consoleLog = jest.spyOn(console, 'log');
    const messages: string[] = [];
    const spies = (['debug', 'log', 'warn', 'error'] as const).map((level) =>
      jest
        .spyOn(Logger.prototype, level)
        .mockImplementation((...args: unknown[]) => void messages.push(`${level}: ${String(args[0])}`)),
    );
    try {
      await expect(
        api.db.platform.query('SELECT $1::text AS secret FROM no_such_table', ['whsec_do_not_log_me']),
      ).rejects.toThrow(/no_such_table/);
      expect(consoleLog).not.toHaveBeenCalled();
      expect(messages).toEqual([
        expect.stringMatching(
          /^debug: query failed: relation "no_such_table" does not exist — SELECT \$1::text AS secret FROM no_such_table \(1 parameters, not logged\)$/,
        ),
      ]);
      expect(messages.join('\n')).not.toContain('whsec_do_not_log_me');
    } finally {
      consoleLog.mockRestore();
      for (const spy of spies) spy.mockRestore();
    }
  });
});
