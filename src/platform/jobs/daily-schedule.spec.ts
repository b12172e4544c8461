import { nextDailyRun } from './daily-schedule';

describe('nextDailyRun', () => {
  it('is today at 08:00 UTC before that hour, tomorrow from that hour on', () => {
    expect(nextDailyRun(new Date('2026-03-10T07:59:59Z')).toISOString()).toBe('2026-03-10T08:00:00.000Z');
    expect(nextDailyRun(new Date('2026-03-10T08:00:00Z')).toISOString()).toBe('2026-03-11T08:00:00.000Z');
    expect(nextDailyRun(new Date('2026-12-31T23:00:00Z')).toISOString()).toBe('2027-01-01T08:00:00.000Z');
  });
});
