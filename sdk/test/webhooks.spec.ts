import { signatureHeader } from '../../src/platform/outbox/signature';
import { verifyWebhook, WebhookVerificationError } from '../src/webhooks';

/** verifyWebhook against the API's own signing code (src/platform/outbox/signature.ts). */
describe('verifyWebhook (@church-api/sdk/webhooks)', () => {
  const secret = 'whsec_4kQ0hG1c8uV2x9bN7mR3tY6pL5aZ0sD1';
  const rolled = 'whsec_0000000000000000000000000000000A';
  const t = 1_767_225_600;
  const event = {
    id: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    type: 'donation.created',
    created: t,
    tenant: 'grace',
    api_version: '2026-01-01',
    data: { object: { id: 'don_1', amount: 25000, currency: 'MXN', note: 'Ofrenda de José' } },
  };
  const body = JSON.stringify(event);
  const refused = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (error instanceof WebhookVerificationError) return error.reason;
      throw error;
    }
    return 'accepted';
  };

  it('returns the event, typed by its type, for a body signed as the API signs it', () => {
    const verified = verifyWebhook(body, signatureHeader(body, [secret], t), [secret], { now: t });
    expect(verified).toEqual(event);
    if (verified.type === 'donation.created') expect(verified.data.object.amount).toBe(25000);
  });

  it('takes the raw bytes (a Buffer, non-ASCII text) and one secret as a string', () => {
    const header = signatureHeader(body, [secret], t);
    expect(verifyWebhook(Buffer.from(body, 'utf8'), header, secret, { now: t }).id).toBe(event.id);
  });

  it('accepts any live secret during a roll (one v1= per secret), and the new secret alone', () => {
    const header = signatureHeader(body, [rolled, secret], t);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(refused(() => verifyWebhook(body, header, [secret], { now: t }))).toBe('accepted');
    expect(refused(() => verifyWebhook(body, header, [rolled], { now: t }))).toBe('accepted');
  });

  it('refuses a tampered body, another secret, and re-serialized JSON', () => {
    const header = signatureHeader(body, [secret], t);
    expect(refused(() => verifyWebhook(body.replace('25000', '95000'), header, [secret], { now: t }))).toBe(
      'no_matching_signature',
    );
    expect(refused(() => verifyWebhook(body, header, [rolled], { now: t }))).toBe('no_matching_signature');
    expect(refused(() => verifyWebhook(JSON.stringify(event, null, 2), header, [secret], { now: t }))).toBe(
      'no_matching_signature',
    );
    expect(refused(() => verifyWebhook(body, header, [], { now: t }))).toBe('no_matching_signature');
  });

  it('refuses a timestamp outside the tolerance (300 s by default), either way', () => {
    const header = signatureHeader(body, [secret], t);
    expect(refused(() => verifyWebhook(body, header, [secret], { now: t + 300 }))).toBe('accepted');
    expect(refused(() => verifyWebhook(body, header, [secret], { now: t + 301 }))).toBe('timestamp_out_of_tolerance');
    expect(refused(() => verifyWebhook(body, header, [secret], { now: t - 301 }))).toBe('timestamp_out_of_tolerance');
    expect(refused(() => verifyWebhook(body, header, [secret], { now: t + 1000, toleranceSeconds: 1000 }))).toBe(
      'accepted',
    );
  });

  it('refuses a missing or malformed header', () => {
    const sig = signatureHeader(body, [secret], t).split(',')[1];
    for (const header of [
      undefined,
      null,
      '',
      `t=${t}`,
      sig,
      `t=soon,${sig}`,
      `t=${t},v1=abc`,
      `t=${t},v0=${sig.slice(3)}`,
    ])
      expect(refused(() => verifyWebhook(body, header, [secret], { now: t }))).toBe('malformed_header');
  });
});
