import { createHmac } from 'node:crypto';
import { signatureHeader } from '../platform/outbox/signature';
import { verifyWebhook } from './verify-webhook';

/** The specification's signature, computed here independently of the service's code. */
function sign(body: string | Buffer, secret: string, t: number): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

describe('verifyWebhook (receiver helper)', () => {
  const secret = 'whsec_4kQ0hG1c8uV2x9bN7mR3tY6pL5aZ0sD1';
  const other = 'whsec_0000000000000000000000000000000A';
  const t = 1_767_225_600;
  const body = JSON.stringify({
    id: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    type: 'member.created',
    created: t,
    tenant: 'grace',
    api_version: '2026-01-01',
    data: { object: { first_name: 'José', status_label: 'Líder' } },
  });
  const header = `t=${t},v1=${sign(body, secret, t)}`;

  it('accepts a correctly signed body and returns its timestamp', () => {
    expect(verifyWebhook(body, header, [secret], { now: t })).toEqual({ ok: true, timestamp: t });
  });

  it('accepts the raw bytes as a Buffer (non-ASCII body)', () => {
    expect(verifyWebhook(Buffer.from(body, 'utf8'), header, [secret], { now: t })).toEqual({ ok: true, timestamp: t });
  });

  it("agrees with the service's own signing code", () => {
    expect(signatureHeader(body, [secret], t)).toBe(header);
    expect(verifyWebhook(body, signatureHeader(body, [secret], t), [secret], { now: t }).ok).toBe(true);
  });

  it('refuses a body with one character changed', () => {
    const tampered = body.replace('José', 'Josà');
    expect(tampered).not.toBe(body);
    expect(verifyWebhook(tampered, header, [secret], { now: t })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
    // Re-serialized JSON with other spacing is other bytes too.
    expect(verifyWebhook(JSON.stringify(JSON.parse(body), null, 1), header, [secret], { now: t }).ok).toBe(false);
  });

  it('refuses another secret, and a signature over another timestamp', () => {
    expect(verifyWebhook(body, header, [other], { now: t })).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhook(body, `t=${t + 1},v1=${sign(body, secret, t)}`, [secret], { now: t })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
    expect(verifyWebhook(body, header, [], { now: t })).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  it('accepts any of several secrets (while rolling one)', () => {
    expect(verifyWebhook(body, header, [other, secret], { now: t }).ok).toBe(true);
  });

  it('accepts a header with one v1= per live secret, with either secret', () => {
    const rolled = `t=${t},v1=${sign(body, other, t)},v1=${sign(body, secret, t)}`;
    expect(verifyWebhook(body, rolled, [secret], { now: t }).ok).toBe(true);
    expect(verifyWebhook(body, rolled, [other], { now: t }).ok).toBe(true);
    expect(verifyWebhook(body, rolled, ['whsec_somethingelse'], { now: t }).ok).toBe(false);
    expect(verifyWebhook(body, signatureHeader(body, [other, secret], t), [secret], { now: t }).ok).toBe(true);
  });

  it('enforces the 300-second tolerance both ways', () => {
    expect(verifyWebhook(body, header, [secret], { now: t + 300 }).ok).toBe(true);
    expect(verifyWebhook(body, header, [secret], { now: t - 300 }).ok).toBe(true);
    expect(verifyWebhook(body, header, [secret], { now: t + 301 })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verifyWebhook(body, header, [secret], { now: t - 301 })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('honours a custom tolerance', () => {
    expect(verifyWebhook(body, header, [secret], { now: t + 10, toleranceSeconds: 10 }).ok).toBe(true);
    expect(verifyWebhook(body, header, [secret], { now: t + 11, toleranceSeconds: 10 })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('uses the clock when no `now` is given', () => {
    const fresh = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(body, `t=${fresh},v1=${sign(body, secret, fresh)}`, [secret]).ok).toBe(true);
    expect(verifyWebhook(body, header, [secret])).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
  });

  it('tolerates spaces after commas and ignores unknown schemes', () => {
    expect(verifyWebhook(body, `t=${t}, v0=abc, v1=${sign(body, secret, t)}`, [secret], { now: t }).ok).toBe(true);
  });

  it.each([
    ['a missing header', undefined],
    ['a null header', null],
    ['an empty header', ''],
    ['garbage', 'garbage'],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no signature', `t=${t}`],
    ['a non-numeric timestamp', `t=soon,v1=${'a'.repeat(64)}`],
    ['a short signature', `t=${t},v1=abcdef`],
    ['a non-hex signature', `t=${t},v1=${'z'.repeat(64)}`],
  ])('reports %s as malformed', (_label, value) => {
    expect(verifyWebhook(body, value, [secret], { now: t })).toEqual({ ok: false, reason: 'malformed_header' });
  });
});
