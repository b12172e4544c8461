import { methodOf, readEvent, toCommand } from './processor-events';

const event = (type: string, object: unknown, extra: Record<string, unknown> = {}) =>
  readEvent({ id: 'evt_1', type, created: 1767628800, data: { object }, ...extra })!;

describe('processor events', () => {
  describe('readEvent', () => {
    it('reads id, type, created and the object', () => {
      expect(
        readEvent({ id: 'evt_1', type: 'charge.refunded', created: 5, data: { object: { id: 'ch_1', amount: 3 } } }),
      ).toEqual({
        id: 'evt_1',
        type: 'charge.refunded',
        created: 5,
        objectId: 'ch_1',
        object: { id: 'ch_1', amount: 3 },
      });
    });

    it.each([null, 42, 'x', [], {}, { id: 'evt_1' }, { type: 'x' }, { id: 7, type: 'x' }, { id: '', type: 'x' }])(
      'is null for something that is not an event: %p',
      (value) => {
        expect(readEvent(value)).toBeNull();
      },
    );

    it('takes an event without data as one with an empty object', () => {
      expect(readEvent({ id: 'evt_1', type: 'x', data: 'junk' })).toMatchObject({
        objectId: null,
        object: {},
        created: null,
      });
    });
  });

  describe('payment_intent.succeeded', () => {
    const intent = (over: Record<string, unknown> = {}) => ({
      id: 'pi_1',
      amount: 2500,
      amount_received: 2500,
      currency: 'usd',
      payment_method_types: ['card'],
      metadata: { fund_id: 'fnd_x', donor_id: 'mem_y', recurring_gift_id: 'rcg_z' },
      ...over,
    });

    it('is a payment with the intent amount, upper-case currency, metadata ids, method and the event time', () => {
      expect(toCommand(event('payment_intent.succeeded', intent()))).toEqual({
        kind: 'payment',
        processorId: 'pi_1',
        amount: 2500,
        currency: 'USD',
        fundId: 'fnd_x',
        donorId: 'mem_y',
        recurringGiftId: 'rcg_z',
        method: 'card',
        receivedAt: new Date(1767628800 * 1000),
      });
    });

    it('prefers amount_received, falls back to amount', () => {
      expect(toCommand(event('payment_intent.succeeded', intent({ amount_received: 1800 })))).toMatchObject({
        amount: 1800,
      });
      expect(toCommand(event('payment_intent.succeeded', intent({ amount_received: 0 })))).toMatchObject({
        amount: 2500,
      });
    });

    it('ignores an intent without metadata.fund_id (not a gift)', () => {
      expect(toCommand(event('payment_intent.succeeded', intent({ metadata: {} })))).toMatchObject({ kind: 'ignored' });
      expect(toCommand(event('payment_intent.succeeded', intent({ metadata: null })))).toMatchObject({
        kind: 'ignored',
      });
    });

    it.each([
      ['a float amount', { amount: 10.5, amount_received: 10.5 }],
      ['a string amount', { amount: '100', amount_received: null }],
      ['an amount past the maximum', { amount: 100_000_001, amount_received: 100_000_001 }],
      ['a currency outside the table', { currency: 'xyz' }],
      ['no currency', { currency: null }],
      ['no id', { id: undefined }],
    ])('rejects %s', (_label, over) => {
      expect(toCommand(event('payment_intent.succeeded', intent(over)))).toMatchObject({ kind: 'rejected' });
    });
  });

  describe('methodOf', () => {
    it.each([
      [{ payment_method_types: ['card'] }, 'card'],
      [{ payment_method_types: ['card', 'link'] }, 'card'],
      [{ payment_method_types: ['us_bank_account'] }, 'ach'],
      [{ payment_method_types: ['card', 'us_bank_account'] }, 'online'],
      [{ payment_method_types: ['oxxo'] }, 'online'],
      [{}, 'online'],
      [
        { payment_method: { id: 'pm_1', type: 'us_bank_account' }, payment_method_types: ['card', 'us_bank_account'] },
        'ach',
      ],
    ])('%p -> %s', (intent, method) => {
      expect(methodOf(intent)).toBe(method);
    });
  });

  describe('charge.refunded', () => {
    it("carries the charge's amount_refunded and its newest refund", () => {
      const charge = {
        id: 'ch_1',
        payment_intent: 'pi_1',
        amount: 5000,
        amount_refunded: 3000,
        refunds: {
          data: [
            { id: 're_2', amount: 1000 },
            { id: 're_1', amount: 2000 },
          ],
        },
      };
      expect(toCommand(event('charge.refunded', charge))).toEqual({
        kind: 'refund',
        processorId: 'pi_1',
        refundedTotal: 3000,
        latest: { id: 're_2', amount: 1000 },
      });
    });

    it('works without the refunds list (API versions that do not expand it) and with an expanded intent', () => {
      expect(toCommand(event('charge.refunded', { payment_intent: { id: 'pi_1' }, amount_refunded: 700 }))).toEqual({
        kind: 'refund',
        processorId: 'pi_1',
        refundedTotal: 700,
        latest: null,
      });
    });

    it('rejects a charge without an intent or an amount_refunded', () => {
      expect(toCommand(event('charge.refunded', { amount_refunded: 700 }))).toMatchObject({ kind: 'rejected' });
      expect(toCommand(event('charge.refunded', { payment_intent: 'pi_1' }))).toMatchObject({ kind: 'rejected' });
    });
  });

  describe('charge.dispute.created', () => {
    it('carries reason, status and amount', () => {
      expect(
        toCommand(
          event('charge.dispute.created', {
            id: 'dp_1',
            payment_intent: 'pi_1',
            amount: 2500,
            reason: 'fraudulent',
            status: 'needs_response',
          }),
        ),
      ).toEqual({
        kind: 'dispute',
        processorId: 'pi_1',
        reason: 'fraudulent',
        status: 'needs_response',
        amount: 2500,
      });
    });
  });

  describe('invoice.payment_failed', () => {
    it('finds the recurring gift in the subscription metadata (API 2025+), the older place, the invoice or its first line', () => {
      const shapes = [
        { parent: { subscription_details: { metadata: { recurring_gift_id: 'rcg_1' } } } },
        { subscription_details: { metadata: { recurring_gift_id: 'rcg_1' } } },
        { metadata: { recurring_gift_id: 'rcg_1' } },
        { lines: { data: [{ metadata: { recurring_gift_id: 'rcg_1' } }] } },
      ];
      for (const shape of shapes)
        expect(toCommand(event('invoice.payment_failed', { id: 'in_1', ...shape }))).toMatchObject({
          kind: 'charge_failed',
          recurringGiftId: 'rcg_1',
          invoiceId: 'in_1',
        });
    });

    it("takes the reason from the invoice's last error, else the attempt count", () => {
      const base = { id: 'in_1', metadata: { recurring_gift_id: 'rcg_1' } };
      expect(
        toCommand(
          event('invoice.payment_failed', { ...base, last_finalization_error: { message: 'Your card was declined.' } }),
        ),
      ).toMatchObject({ reason: 'Your card was declined.' });
      expect(toCommand(event('invoice.payment_failed', { ...base, attempt_count: 2 }))).toMatchObject({
        reason: 'payment failed (attempt 2)',
      });
    });

    it('ignores an invoice that is not of a recurring gift', () => {
      expect(toCommand(event('invoice.payment_failed', { id: 'in_1' }))).toMatchObject({ kind: 'ignored' });
    });
  });

  it('ignores the types it does not map', () => {
    expect(toCommand(event('customer.created', { id: 'cus_1' }))).toMatchObject({ kind: 'ignored' });
  });
});
