import { DEFAULT_LANGUAGE, interpolate, LANGUAGES, negotiateLanguage } from './language';

describe('negotiateLanguage', () => {
  it('supports es, en and pt; the default is es', () => {
    expect([...LANGUAGES]).toEqual(['es', 'en', 'pt']);
    expect(DEFAULT_LANGUAGE).toBe('es');
  });

  it.each([
    [undefined, 'es'],
    ['', 'es'],
    ['*', 'es'],
    ['en', 'en'],
    ['pt', 'pt'],
    ['es', 'es'],
    // Regional tags fall back to their base language.
    ['pt-BR', 'pt'],
    ['pt-PT', 'pt'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['es-419', 'es'],
    ['es-MX', 'es'],
    ['zh-Hant-TW', 'es'],
    // Case-insensitive.
    ['PT-br', 'pt'],
    ['EN', 'en'],
    // Unsupported languages fall back to es.
    ['fr', 'es'],
    ['de-DE, fr;q=0.8', 'es'],
    ['ptx', 'es'],
    ['english', 'es'],
    ['e', 'es'],
  ])('%j -> %s', (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });

  describe('q-values', () => {
    it.each([
      ['en;q=0.5, pt;q=0.8', 'pt'],
      ['pt;q=0.8, en', 'en'],
      ['en-US,en;q=0.9,pt;q=0.8', 'en'],
      ['fr-FR,fr;q=0.9,pt-BR;q=0.8,en;q=0.7', 'pt'],
      ['fr, en;q=0.1', 'en'],
      ['de;q=1, en;q=0.001', 'en'],
      ['en;q=1.0, pt;q=1', 'en'],
      ['pt;q=0.9, en;q=0.9', 'pt'],
      ['en;q=0.9, pt;q=0.9', 'en'],
      ['es;q=0.2, en;q=0.3, pt;q=0.1', 'en'],
      ['en;Q=0.1, pt;q=0.5', 'pt'],
    ])('%j -> %s', (header, expected) => {
      expect(negotiateLanguage(header)).toBe(expected);
    });

    it('q=0 means "not acceptable"', () => {
      expect(negotiateLanguage('en;q=0')).toBe('es');
      expect(negotiateLanguage('en;q=0, pt;q=0.1')).toBe('pt');
      expect(negotiateLanguage('pt;q=0.0, en;q=0.000')).toBe('es');
    });

    it('a malformed q-value does not make the tag preferred', () => {
      expect(negotiateLanguage('en;q=abc, pt;q=0.5')).toBe('pt');
    });

    it('tolerates white space around the separators (RFC 9110 OWS)', () => {
      expect(negotiateLanguage('  fr ,  en;q=0.4 , pt ; q=0.7')).toBe('pt');
      expect(negotiateLanguage('fr, en ;q=0.8')).toBe('en');
      expect(negotiateLanguage('fr,pt-BR ; q=0.5')).toBe('pt');
    });

    it('ignores other parameters', () => {
      expect(negotiateLanguage('en;level=1;q=0.9, pt;q=0.5')).toBe('en');
    });
  });

  it('gives the same answer when asked again (cached)', () => {
    const header = 'fr;q=0.9, pt-BR;q=0.8, en;q=0.3';
    expect(negotiateLanguage(header)).toBe('pt');
    expect(negotiateLanguage(header)).toBe('pt');
    for (let i = 0; i < 1100; i++) negotiateLanguage(`x-${i}, en;q=0.${(i % 9) + 1}`);
    expect(negotiateLanguage(header)).toBe('pt');
    expect(negotiateLanguage('x-5000, en;q=0.2')).toBe('en');
  });
});

describe('interpolate', () => {
  it('fills known placeholders and leaves unknown ones', () => {
    expect(interpolate('Between {min} and {max}.', { min: 1, max: 250 })).toBe('Between 1 and 250.');
    expect(interpolate('Missing {what}.', {})).toBe('Missing {what}.');
    expect(interpolate('No placeholders.')).toBe('No placeholders.');
    expect(interpolate('{a}{a}', { a: 'x' })).toBe('xx');
  });
});
