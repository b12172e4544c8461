// Summarises a V8 .cpuprofile (from BENCH_CPU_PROF=1): self time by package and the top functions.
// Usage: node bench/lib/profile-summary.mjs bench/results/profiles/<file>.cpuprofile [top=30]
import { readFileSync } from 'node:fs';

const file = process.argv[2];
const top = Number(process.argv[3] ?? 30);
if (!file) {
  console.error('usage: node bench/lib/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
/** A native or Node-internal frame is charged to its nearest caller outside Node's own code. */
const isNodeOwn = (n) => !n.callFrame.url || n.callFrame.url.startsWith('node:');
function owner(node) {
  if (SPECIAL.has(node.callFrame.functionName)) return node;
  let n = node;
  while (n && isNodeOwn(n) && parent.has(n.id)) n = byId.get(parent.get(n.id));
  return n && !isNodeOwn(n) ? n : node;
}
const idle = [...self]
  .filter(([id]) => byId.get(id).callFrame.functionName === '(idle)')
  .reduce((a, [, us]) => a + us, 0);
const total = [...self.values()].reduce((a, b) => a + b, 0) - idle;

function packageOf(url, name) {
  if (!url)
    return name === '(garbage collector)' ? '(gc)' : name === '(idle)' || name === '(program)' ? name : '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] === 'internal' ? 'internal' : url.slice(5)}`;
  const d = /\/dist\/(.+?)\.js$/.exec(url);
  if (d) return `app:${d[1].split('/').slice(0, 2).join('/')}`;
  return url;
}

const byPkg = new Map();
const byFn = new Map();
for (const [id, us] of self) {
  const node = byId.get(id);
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') continue;
  const charged = owner(node).callFrame;
  const pkg = packageOf(charged.url, charged.functionName);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  const where = (u, line) =>
    u ? `${u.replace(/^.*node_modules\//, '').replace(/^(file:\/\/)?.*\/dist\//, 'dist/')}:${line + 1}` : '';
  const key =
    charged === node.callFrame
      ? `${functionName || '(anonymous)'}  ${where(url, lineNumber)}`
      : `${functionName || '(native)'} [from ${charged.functionName || '(anonymous)'} ${where(charged.url, charged.lineNumber)}]`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
}
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s busy (idle ${(idle / 1e6).toFixed(1)} s left out)\n\nself time by package (native and node: frames charged to their first caller outside Node):`,
);
for (const [pkg, us] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(us)}  ${pkg}`);
console.log(`\ntop ${top} functions by self time:`);
for (const [fn, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${fn}`);
