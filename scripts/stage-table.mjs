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
// the side lanes' jobs: "start<TAB>seconds<TAB>CPU seconds<TAB>name" (scripts/test.sh side)
const side = (() => {
  try {
    return readFileSync(sideSrc, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [t, seconds, cpu, ...name] = l.split('\t');
        return { t: Number(t), seconds: Number(seconds), cpu: Number(cpu), name: name.join('\t') };
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
    // "seconds since start<TAB>the machine's busy CPU time then, in hundredths of a core-second<TAB>stage"
    const [t, busy, ...name] = l.split('\t');
    return { t: Number(t), busy: Number(busy), name: name.join('\t') };
  });
const last = rows.find((r) => r.name === 'done') ?? rows[rows.length - 1];
const end = last.t;
const stages = rows
  .filter((r) => r.name !== 'done')
  .map((r, i, a) => ({ ...r, seconds: (a[i + 1] ?? last).t - r.t, cpu: ((a[i + 1] ?? last).busy - r.busy) / 100 }));
const totalCpu = (last.busy - rows[0].busy) / 100;
/** Cores kept busy on average over `seconds` by `cpu` CPU seconds: "1.83", or "—" over no time. */
const cores = (cpu, seconds) => (seconds > 0 && cpu >= 0 ? (cpu / seconds).toFixed(2) : '—');
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
  `The CPU columns count the whole machine's busy time (/proc/stat) over each stage, whatever ran then: the main lane, the side lane, anything else. On ${cpus().length} cores the run can at best keep ${cpus().length} busy; a stage well under that waits on something other than the CPU.`,
  '',
  '| stage | seconds | share | CPU seconds (machine) | cores busy |',
  '|---|---|---|---|---|',
  ...stages.map(
    (s) => `| ${s.name} | ${s.seconds} | ${Math.round((100 * s.seconds) / Math.max(1, end))}% | ${Math.round(s.cpu)} | ${cores(s.cpu, s.seconds)} |`,
  ),
  `| **total** | **${end}** (${min(end)}) | ${end <= 720 ? 'within' : 'over'} the 12 minutes | ${Math.round(totalCpu)} | ${cores(totalCpu, end)} |`,
  '',
  ...(side.length
    ? [
        "Alongside the main lane (a second lane of jobs that assert nothing about time, started with the stage that holds them; their seconds are inside that stage's):",
        '',
        "The CPU seconds of a job are its own processes' (user + system, as the shell that started it counts its finished children).",
        '',
        '| job | started at (s) | seconds | CPU seconds |',
        '|---|---|---|---|',
        ...side.map((j) => `| ${j.name} | ${j.t} | ${j.seconds} | ${Number.isFinite(j.cpu) ? j.cpu : '—'} |`),
        '',
      ]
    : []),
];
writeFileSync(out, md.join('\n'));
console.log(`stage-table: ${out} (${min(end)})`);
