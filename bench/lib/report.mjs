// The result table (Markdown, printed and put in README.md and bench/README.md) and bench/results/latest.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, REPO_ROOT, RESULTS_DIR } from './util.mjs';

const num = (v, digits = 0) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '—'
    : v.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (v) => `${num(v, v !== null && v < 10 ? 2 : 1)} ms`;

function cell(side, row) {
  if (!side) return '—';
  switch (row.metric.split(' ')[0]) {
    case 'req/s':
      return `${num(side.rps)} req/s · ${num(side.cpu_us_per_req)} µs CPU`;
    case 'deliveries/s':
    case 'statements/s':
    case 'iterations/s':
    case 'recipients/s':
    case 'rows/s':
      return `${num(side.rps)}/s · ${num(side.cpu_us_per_req)} µs CPU`;
    case 'p50':
      return `p50 ${ms(side.p50_ms)}`;
    case 'API':
      return `${num(side.cpu_us_per_req)} µs CPU`;
    case 'p99':
      return row.metric.includes('lateness')
        ? `p99 ${ms(side.p99_ms)} (p50 ${ms(side.p50_ms)})`
        : `p99 ${ms(side.p99_ms)}`;
    case 'count':
      return `${side.lost} lost, ${side.duplicates} duplicate`;
    case 'duplicates':
      return `${side.duplicates} duplicate codes, ${side.partial} partial check-ins`;
    case 'text':
      return side.text;
    case 'plan':
      return row.pass
        ? (row.summary ?? 'index scans only')
        : row.failure || row.plans?.flatMap((p) => p.verdict.problems).join('; ') || 'no plan';
    default:
      return JSON.stringify(side);
  }
}

function ratioCell(row) {
  if (row.ratio === null || row.ratio === undefined) return '—';
  return row.target?.op === '>=' || row.metric.startsWith('req/s') || row.metric.endsWith('/s')
    ? `${num(row.ratio * 100)}%`
    : `${num(row.ratio, 2)}×`;
}

function targetCell(row) {
  const t = row.target;
  if (!t) return 'info';
  if (t.op === '>=') return `≥ ${num(t.value * 100)}%`;
  if (t.op === '<=') return `≤ ${num(t.value, 2)}×`;
  if (t.op === '<= ms') return `≤ ${num(t.value)} ms`;
  if (t.op === '==') return `${t.value}`;
  return String(t.value);
}

export function table(rows) {
  const lines = ['| # | scenario | project | baseline | ratio | target | result |', '|---|---|---|---|---|---|---|'];
  for (const row of rows) {
    const result = row.pass === null || row.pass === undefined ? '' : row.pass ? '**pass**' : '**FAIL**';
    lines.push(
      `| ${row.id} | ${row.title} | ${cell(row.project, row)} | ${cell(row.baseline, row)} | ${ratioCell(row)} | ${targetCell(row)} | ${result} |`,
    );
  }
  return lines.join('\n');
}

export function seriesTable(series) {
  const lines = [
    '| series | req/s | p50 | p99 | server CPU µs/req | PostgreSQL µs/req | Redis µs/req | requests | errors / ≥400 |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [key, s] of Object.entries(series)) {
    lines.push(
      `| ${key} | ${num(s.rps)} | ${ms(s.p50_ms)} | ${ms(s.p99_ms)} | ${num(s.cpu_us_per_req)} | ${num(s.db_us_per_req)} | ${num(s.redis_us_per_req)} | ${num(s.requests)} | ${s.errors} / ${s.non2xx} |`,
    );
  }
  return lines.join('\n');
}

export function machineLine(m, settings) {
  const load = m.load_at_start === undefined ? '' : `, load average ${m.load_at_start} at start`;
  return `${m.nproc} × ${m.cpu}, ${m.memory_gb} GB, Linux ${m.kernel}, Node ${m.node}${load}; ${settings.loader} -t1, ${settings.duration} s runs × ${settings.runs} (median) after ${settings.warmup} s warm-up, pool ${settings.pool_size}`;
}

export function writeLatest(result) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'latest.json');
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

/** When the run began and ended, in UTC: `2026-11-26 07:02–07:13`. */
function period(result) {
  const [startDay, startTime] = [result.started_at.slice(0, 10), result.started_at.slice(11, 16)];
  const [endDay, endTime] = [result.finished_at.slice(0, 10), result.finished_at.slice(11, 16)];
  return startDay === endDay
    ? `${startDay} ${startTime}–${endTime}`
    : `${startDay} ${startTime} – ${endDay} ${endTime}`;
}

/** Where `marker` stands alone on a line of `text` (a mention of it in prose does not count), or -1. */
function markerAt(text, marker, from = 0) {
  for (let i = text.indexOf(marker, from); i >= 0; i = text.indexOf(marker, i + 1)) {
    const end = i + marker.length;
    if ((i === 0 || text[i - 1] === '\n') && (end === text.length || text[end] === '\n')) return i;
  }
  return -1;
}

/** Replaces the block between the markers of `file` with `lines`; false when the file has no markers. */
function replaceBlock(file, lines) {
  const text = readFileSync(file, 'utf8');
  const a = markerAt(text, START);
  const b = markerAt(text, END, a + 1);
  if (a < 0 || b < 0) return false;
  writeFileSync(file, text.slice(0, a) + [START, '', ...lines, '', END].join('\n') + text.slice(b + END.length));
  return true;
}

/**
 * After a complete run: its table between the markers of the repository's README.md, and the
 * table with every measured series between those of bench/README.md. Returns the files written.
 */
export function updateReadme(result) {
  const heading = `\`npm run bench\`, ${period(result)} UTC on ${machineLine(result.machine, result.settings)}.`;
  const rows = table(result.rows);
  const written = [];
  if (replaceBlock(join(REPO_ROOT, 'README.md'), [heading, '', rows])) written.push('README.md');
  const series = [
    '<details><summary>Every measured series (medians)</summary>',
    '',
    seriesTable(result.series),
    '',
    '</details>',
  ];
  if (replaceBlock(join(BENCH_DIR, 'README.md'), [heading, '', rows, '', ...series])) written.push('bench/README.md');
  return written;
}
