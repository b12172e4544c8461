/**
 * Text the database can hold: PostgreSQL `text` and `jsonb` refuse U+0000, and an unpaired UTF-16
 * surrogate has no UTF-8 form (some validators even throw on it). Neither is accepted from a client.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is one of the characters this exists to find.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** The text with each such character replaced by U+FFFD, fit to be echoed (e.g. a refused key in `errors[].field`). */
export function printableText(value: string): string {
  return value.replace(UNSTORABLE_ALL, '\ufffd');
}

/** The `format` named in the field issue of a refused value. */
export const STORABLE_TEXT_FORMAT = 'Unicode text without NUL (U+0000) or unpaired surrogate characters';
