import { inlineParameters } from './inline-parameters';

describe('inlineParameters', () => {
  it('replaces each $n with its value as a literal, as pg would send it', () => {
    expect(
      inlineParameters('SELECT $1, $2, $3, $4, $5, $6, $10', [
        "it's",
        'a\\b',
        7,
        null,
        ['x', 'y"z'],
        { a: 1 },
        undefined,
        undefined,
        undefined,
        true,
      ]),
    ).toBe(`SELECT 'it''s',  E'a\\\\b', '7', NULL,  E'{"x","y\\\\"z"}', '{"a":1}', 'true'`);
    expect(inlineParameters('SELECT $1::bytea', [Buffer.from([0, 255])])).toBe(`SELECT '\\x00ff'::bytea`);
  });

  it('leaves placeholders alone inside quotes, comments, dollar quotes and identifiers', () => {
    const sql = `SELECT '$1', E'\\'$1', "$1", a$1, $q$ $1 $q$, $$ $1 $$ -- $1
      /* $1 /* $1 */ $1 */ FROM t WHERE x = $1`;
    expect(inlineParameters(sql, ['v'])).toBe(sql.replace(/= \$1$/, "= 'v'"));
  });

  it('gives up (null) on what it cannot read or should not inline', () => {
    expect(inlineParameters("SELECT 'open", [])).toBeNull();
    expect(inlineParameters('SELECT $2', ['only one'])).toBeNull();
    expect(inlineParameters('SELECT $0', [])).toBeNull();
    expect(inlineParameters('SELECT $1', ['x'.repeat(20_000)])).toBeNull();
    expect(inlineParameters('SELECT $1', [Array.from({ length: 500 }, (_, i) => i)])).toBeNull();
  });
});
