import { interpolate, Language } from '../../common/i18n/language';
import { windowEnd } from '../../platform/rate-limit/buckets';
import { CONSOLE_TEXTS } from './console.texts';
import { shortTime } from './console-webhooks.view';

const DAY_MS = 86_400_000;
/** The bar picture's width: a use drawn narrower than one pixel of it is shown as numbers only. */
export const USAGE_BAR_WIDTH = 560;

/**
 * Today's requests against the daily quota as the Usage page shows them: the text always; the
 * meter and the bar picture only when they can say something (a finite quota, and a use of at
 * least one pixel of the bar); and when the day's window (00:00 UTC) starts again.
 */
export function dayUsage(used: number, perDay: number, lang: Language, now = Date.now()) {
  const t = CONSOLE_TEXTS[lang].usage;
  const number = new Intl.NumberFormat(lang);
  const unlimited = !Number.isFinite(perDay) || perDay <= 0;
  const share = unlimited ? 0 : used / perDay;
  const percent = share > 0 && share < 0.01 ? t.underOnePercent : String(Math.min(100, Math.round(share * 100)));
  const text = unlimited
    ? interpolate(t.unlimitedText, { used: number.format(used) })
    : interpolate(t.todayText, { used: number.format(used), quota: number.format(perDay), percent });
  return {
    unlimited,
    drawn: !unlimited && share * USAGE_BAR_WIDTH >= 1,
    text,
    quota: unlimited ? t.unlimited : number.format(perDay),
    resets: interpolate(t.resetsText, { at: shortTime(new Date(windowEnd(now, DAY_MS)).toISOString(), lang, '') }),
  };
}
