const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
  '`': '&#x60;',
  '=': '&#x3D;',
};

/** Escapes text for HTML exactly as Handlebars does for `{{value}}`. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`=]/g, (c) => ENTITIES[c]);
}

/**
 * A catalog sentence with `{name}` placeholders as HTML: the sentence is ours, each value is
 * escaped and wrapped in <strong> (the church's and the app's names stand out in a sentence).
 */
export function richText(template: string, params: Record<string, string>): string {
  return escapeHtml(template).replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? `<strong>${escapeHtml(params[key])}</strong>` : whole,
  );
}

/** Up to two initials of a name, for the round badge that stands for a church or an app. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !/^(de|del|la|las|los|el|da|do|dos|das|of|the|and|y|e)$/i.test(w));
  const letters = (words.length > 1 ? [words[0], words[words.length - 1]] : words).map(
    (w) => [...w][0]?.toUpperCase() ?? '',
  );
  return letters.join('') || '?';
}
