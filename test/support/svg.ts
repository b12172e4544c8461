import { XMLParser } from 'fast-xml-parser';

/** Every element named `name` in a tree parsed by fast-xml-parser (attributes unprefixed), depth first. */
function elements(node: unknown, name: string, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) node.forEach((n) => elements(n, name, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === name) (Array.isArray(value) ? value : [value]).forEach((v) => out.push(v as Record<string, unknown>));
      elements(value, name, out);
    }
  }
  return out;
}

/** An SVG document read as XML (throws if it does not parse): its root, its texts and how many paths each fill colour has. */
export function readSvg(svg: string): {
  root: Record<string, unknown>;
  texts: string[];
  filled: (color: string) => number;
} {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg, true) as unknown;
  const [root] = elements(doc, 'svg');
  if (!root) throw new Error('no <svg> root');
  const texts = elements(doc, 'text').map((t) =>
    typeof t['#text'] === 'string' || typeof t['#text'] === 'number' ? String(t['#text']) : '',
  );
  const paths = elements(doc, 'path');
  return { root, texts, filled: (color) => paths.filter((p) => p.fill === color).length };
}
