export const LANGUAGES = ['es', 'en', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

const cache = new Map<string, Language>();

/** Picks the best supported language from an Accept-Language header (RFC 9110 q-values); default es. */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const hit = cache.get(header);
  if (hit) return hit;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { base: tag.trim().split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => r.q > 0 && !Number.isNaN(r.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const lang =
    (ranked.find((r) => (LANGUAGES as readonly string[]).includes(r.base))?.base as Language) ?? DEFAULT_LANGUAGE;
  if (cache.size < 1000) cache.set(header, lang);
  return lang;
}

/** Fills `{name}` placeholders. */
export function interpolate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => (key in params ? String(params[key]) : `{${key}}`));
}
