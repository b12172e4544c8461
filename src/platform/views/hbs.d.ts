/** The part of `hbs` (Express view engine for Handlebars, no published types) that the pages use. */
declare module 'hbs' {
  interface Hbs {
    registerPartial(name: string, source: string): void;
    registerHelper(name: string, fn: (...args: unknown[]) => unknown): void;
  }
  const hbs: Hbs;
  export = hbs;
}
