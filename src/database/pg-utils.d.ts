declare module 'pg/lib/utils' {
  /** pg's conversion of a query parameter to what it sends: text, a Buffer (bytea), or null. */
  export function prepareValue(value: unknown): string | Buffer | null;
}
