import type { Response } from 'express';
import { interpolate } from '../../common/i18n/language';

/** Why a sign-in form is shown again: a field left empty, wrong credentials, or the throttle. */
export type SignInError = 'missing' | 'wrong' | { throttledSeconds: number };

/**
 * The message a sign-in page shows for `error` in its language (the OAuth and console pages share
 * the sign-in's throttle); a throttled answer also carries `Retry-After`.
 */
export function signInErrorMessage(
  res: Response,
  texts: { missing: string; wrong: string; throttled: string },
  error: SignInError | undefined,
): { text: string; warn?: true } | undefined {
  if (error === undefined) return undefined;
  if (typeof error !== 'object') return { text: texts[error] };
  res.setHeader('Retry-After', String(error.throttledSeconds));
  return {
    text: interpolate(texts.throttled, { minutes: Math.max(1, Math.ceil(error.throttledSeconds / 60)) }),
    warn: true,
  };
}
