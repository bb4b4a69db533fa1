#!/usr/bin/env node
// stage-table.mjs — writes docs/test-stages.md from the stage times `npm test` recorded
// (scripts/test.sh appends "seconds since start<TAB>stage" to test-artifacts/stages.tsv as each
// stage begins, and "done" at the end): the table of where a full run's time goes, written by the
// run itself. Usage: node scripts/stage-table.mjs [stages.tsv] [out.md]
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { execSync } from 'node:child_process';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const [src = `${root}test-artifacts/stages.tsv`, out = `${root}docs/test-stages.md`, sideSrc = join(dirname(src), 'side-stages.tsv')] = process.argv.slice(2);
// the side lanes' jobs: "start<TAB>seconds<TAB>name" (scripts/test.sh side)
const side = (() => {
  try {
    return readFileSync(sideSrc, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [t, seconds, ...name] = l.split('\t');
        return { t: Number(t), seconds: Number(seconds), name: name.join('\t') };
      })
      .sort((a, b) => a.t - b.t);
  } catch {
    return [];
  }
})();
const rows = readFileSync(src, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => {
    const [t, ...name] = l.split('\t');
    return { t: Number(t), name: name.join('\t') };
  });
const end = rows.find((r) => r.name === 'done')?.t ?? rows[rows.length - 1].t;
const stages = rows.filter((r) => r.name !== 'done').map((r, i, a) => ({ ...r, seconds: (a[i + 1]?.t ?? end) - r.t }));
const commit = (() => {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
  } catch {
    return '—';
  }
})();
const min = (s) => `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
const md = [
  '# Where `npm test` spends its time',
  '',
  `Written by the run itself (\`scripts/test.sh\` records when each stage starts; \`scripts/stage-table.mjs\` writes this file). Commit ${commit}, ${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()[0].toFixed(2)} at the end. Target: the whole run within 12 minutes on a fresh 2-core clone, setup included.`,
  '',
  '| stage | seconds | share |',
  '|---|---|---|',
  ...stages.map((s) => `| ${s.name} | ${s.seconds} | ${Math.round((100 * s.seconds) / Math.max(1, end))}% |`),
  `| **total** | **${end}** (${min(end)}) | ${end <= 720 ? 'within' : 'over'} the 12 minutes |`,
  '',
  ...(side.length
    ? [
        "Alongside the main lane (a second lane of jobs that assert nothing about time, started with the stage that holds them; their seconds are inside that stage's):",
        '',
        '| job | started at (s) | seconds |',
        '|---|---|---|',
        ...side.map((j) => `| ${j.name} | ${j.t} | ${j.seconds} |`),
        '',
      ]
    : []),
];
writeFileSync(out, md.join('\n'));
console.log(`stage-table: ${out} (${min(end)})`);
