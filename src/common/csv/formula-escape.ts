/** What a spreadsheet reads as the start of a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number written as text (`-12`, `+3.5`): a value, not a formula, so it stays as it is. */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A text cell that a spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `-2+3`),
 * prefixed with a single quote so that it shows as text; numbers and every other text as they are.
 */
export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) && !NUMBER.test(text) ? `'${text}` : text;
}
