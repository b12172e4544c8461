import { chargeDate, nextChargeOn } from './schedule';

describe('recurring gift schedule', () => {
  it('charges on start_on until it has passed', () => {
    expect(nextChargeOn('2026-03-10', 'month', null, '2026-01-01')).toBe('2026-03-10');
    expect(nextChargeOn('2026-03-10', 'week', null, '2026-03-10')).toBe('2026-03-10');
  });

  it('steps weeks and two weeks from start_on', () => {
    expect(nextChargeOn('2026-01-01', 'week', null, '2026-01-02')).toBe('2026-01-08');
    expect(nextChargeOn('2026-01-01', 'week', null, '2026-01-08')).toBe('2026-01-08');
    expect(nextChargeOn('2026-01-01', 'two_weeks', null, '2026-01-09')).toBe('2026-01-15');
    expect(nextChargeOn('2025-12-25', 'two_weeks', null, '2026-03-01')).toBe('2026-03-05');
  });

  it('keeps the day of the month, clamped to short months, without drifting', () => {
    expect(chargeDate('2026-01-31', 'month', 1)).toBe('2026-02-28');
    expect(chargeDate('2026-01-31', 'month', 2)).toBe('2026-03-31');
    expect(chargeDate('2024-01-31', 'month', 1)).toBe('2024-02-29');
    expect(nextChargeOn('2026-01-31', 'month', null, '2026-03-01')).toBe('2026-03-31');
    expect(nextChargeOn('2026-01-31', 'month', null, '2026-04-15')).toBe('2026-04-30');
    expect(nextChargeOn('2026-01-15', 'month', null, '2026-01-16')).toBe('2026-02-15');
    expect(nextChargeOn('2026-01-15', 'month', null, '2026-02-15')).toBe('2026-02-15');
  });

  it('steps quarters and years, across year ends and leap days', () => {
    expect(nextChargeOn('2025-11-30', 'quarter', null, '2026-01-10')).toBe('2026-02-28');
    expect(nextChargeOn('2025-11-30', 'quarter', null, '2026-03-01')).toBe('2026-05-30');
    expect(nextChargeOn('2024-02-29', 'year', null, '2025-01-01')).toBe('2025-02-28');
    expect(nextChargeOn('2024-02-29', 'year', null, '2027-12-31')).toBe('2028-02-29');
  });

  it('is null once the next date falls after end_on (end_on itself still charges)', () => {
    expect(nextChargeOn('2026-01-01', 'month', '2026-03-01', '2026-02-02')).toBe('2026-03-01');
    expect(nextChargeOn('2026-01-01', 'month', '2026-03-01', '2026-03-02')).toBeNull();
    expect(nextChargeOn('2026-01-01', 'week', '2026-01-05', '2026-01-02')).toBeNull();
  });

  it('agrees with a day-by-day walk of the schedule', () => {
    for (const interval of ['week', 'two_weeks', 'month', 'quarter', 'year'] as const) {
      const start = '2023-01-31';
      const dates: string[] = [];
      for (let k = 0; k < 200; k++) dates.push(chargeDate(start, interval, k));
      for (let d = Date.UTC(2022, 11, 1); d < Date.UTC(2026, 0, 1); d += 86_400_000) {
        const today = new Date(d).toISOString().slice(0, 10);
        expect([interval, today, nextChargeOn(start, interval, null, today)]).toEqual([
          interval,
          today,
          dates.find((date) => date >= today),
        ]);
      }
    }
  });
});
