import { escapeFormula } from './formula-escape';

describe('escapeFormula', () => {
  it.each(['=HYPERLINK("http://x.example","click")', '+1+2', '-2+3', '@SUM(A1:A2)', '\tname', '\rname', '=1'])(
    'quotes %j so that a spreadsheet shows it as text',
    (text) => expect(escapeFormula(text)).toBe(`'${text}`),
  );

  it.each(['-12', '+3.5', '-0.25', '1e5', 'María', 'O=Brien', '', ' =lead space'])('keeps %j', (text) =>
    expect(escapeFormula(text)).toBe(text),
  );
});
