import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';

/** The pages' one style sheet, inlined by the layout and allowed by its hash (no 'unsafe-inline', no extra request). */
export const PAGE_STYLE = readFileSync(join(__dirname, 'pages.css'), 'utf8');
export const PAGE_STYLE_HASH = `sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}`;

/**
 * The Content-Security-Policy of a page: nothing loads but the hashed style sheet (and the scripts
 * whose hashes are given; none on the OAuth pages), no framing, no <base>, and forms post only to this server and, when given,
 * to the origin the flow ends at (browsers apply form-action to the redirect that follows a POST).
 */
export function contentSecurityPolicy(formTargets: string[] = [], scriptHashes: string[] = []): string {
  const targets = ["'self'", ...formTargets.filter((t) => /^https?:\/\/[A-Za-z0-9.:[\]-]+$/.test(t))];
  return [
    "default-src 'none'",
    ...(scriptHashes.length ? [`script-src ${scriptHashes.map((h) => `'${h}'`).join(' ')}`] : []),
    `style-src '${PAGE_STYLE_HASH}'`,
    "img-src 'self' data:",
    `form-action ${targets.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Headers of every page and of every redirect the pages answer with. `scriptHashes`: inline scripts
 * a page may run, by their hash (the console's copy button); none otherwise.
 */
export function setPageHeaders(
  res: Response,
  options: { formTargets?: string[]; lang?: string; scriptHashes?: string[] } = {},
): void {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(options.formTargets, options.scriptHashes));
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  if (options.lang) res.setHeader('Content-Language', options.lang);
  res.vary('Accept-Language');
}

/**
 * Renders `view` (with the inlined style sheet and the page's language) and sends it with the
 * pages' headers: the one way the OAuth and console pages answer.
 */
export async function sendPage(
  res: Response,
  page: { view: string; status: number; lang: string; formTargets?: string[]; scriptHashes?: string[] },
  locals: Record<string, unknown>,
): Promise<void> {
  const html = await new Promise<string>((resolve, reject) =>
    res.render(page.view, { ...locals, lang: page.lang, style: PAGE_STYLE }, (err: Error | null, out?: string) =>
      err ? reject(err) : resolve(out ?? ''),
    ),
  );
  setPageHeaders(res, { formTargets: page.formTargets, lang: page.lang, scriptHashes: page.scriptHashes });
  res.status(page.status).type('html').send(html);
}
