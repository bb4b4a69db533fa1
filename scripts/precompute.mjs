#!/usr/bin/env node
// precompute.mjs — runs the engine once and writes the results the page paints first:
//   public/data/probe.json  (the probe at its defaults, the article's full configuration: Figures 2, 3)
//   public/data/grid.json   (the grid at its defaults, the 16-run toy grid: Figure 4)
//   docs/data/grid-extra.json (the one toy claim that does not reproduce with the page's grid settings)
//   public/data/exp/NAME.json (every experiment on the article's inferences at its defaults,
//                              docs/experiments.md; `experiments`, or `exp:NAME` for one)
//   public/data/exp/NAME.summary.json (what the page loads of a slot with `summarize`: warmup-length's
//                              runs without loss curves, angular-update's angles meaned over groups)
//   public/data/composer.json  (the placement composer's lines at init as it opens: Post-LN and Pre-LN,
//                              and its opening preset as the composed placement; `composer`)
// then regenerates docs/reproduction.md. Usage: node scripts/precompute.mjs [probe|grid|extra|experiments|exp:NAME|summaries|composer|all].
//
// The engine is the threaded WebAssembly build (public/wasm/lnx-mt.*) on every core: WebAssembly
// arithmetic is the same on every CPU and the results do not depend on the thread count, so a
// reader's "Recompute in your browser" with these settings reproduces these files bit for bit (the
// native build's last bits depend on the CPU's vector units; docs/engine.md). Each file records the
// engine version, build and thread count, the config, the date, and "precomputed": true.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadEngine } from './load-engine.mjs';
import { loadRegistry, ssrLoader } from './registry.mjs';

const root = new URL('..', import.meta.url).pathname;
const which = process.argv[2] ?? 'all';
const m = await loadEngine('mt');
m.setThreads(0);

/** The engine's document of `kind` (probe, grid, exp:NAME) for `config`, stamped as precomputed. */
function compute(kind, config) {
  const t0 = Date.now();
  process.stderr.write(`precompute: ${kind} ${JSON.stringify(config)} on ${m.buildFlavour()}, ${m.threads()} threads\n`);
  const exp = kind.startsWith('exp:') ? kind.slice(4) : null;
  const r = exp
    ? new m.ExperimentRun(exp, JSON.stringify(config))
    : kind === 'probe'
      ? new m.ProbeRun(JSON.stringify(config))
      : new m.GridRun(JSON.stringify(config));
  let last = 0;
  while (!r.done()) {
    const f = r.step(kind === 'probe' ? 4 : exp ? 1 : 10);
    if (f - last >= 0.05) {
      process.stderr.write(`  ${(100 * f).toFixed(0)}% ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
      last = f;
    }
  }
  const doc = JSON.parse(kind === 'probe' || exp ? r.resultJson() : r.resultJson(0));
  r.delete();
  doc.generated = new Date().toISOString();
  doc.precomputed = true;
  doc.wall_seconds = Math.round((Date.now() - t0) / 100) / 10;
  return doc;
}

function run(name, kind, config, dir = 'public/data') {
  const doc = compute(kind, config);
  mkdirSync(`${root}${dir}`, { recursive: true });
  writeFileSync(`${root}${dir}/${name}.json`, JSON.stringify(doc) + '\n');
  process.stderr.write(`precompute: wrote ${dir}/${name}.json in ${doc.wall_seconds} s\n`);
}

if (which === 'probe' || which === 'all') run('probe', 'probe', {});
if (which === 'grid' || which === 'all') run('grid', 'grid', {});
// Post-LN, warm-up 300, lr 3e-3 stays on the plateau in the article and descends here: more seeds
// and a longer warm-up.
if (which === 'extra' || which === 'all')
  run('grid-extra', 'grid', { placements: ['post'], warmups: [300, 500], lrs: [3e-3], seeds: [2, 3, 4, 5] }, 'docs/data');
// The experiments on the article's inferences, each at its engine defaults (docs/experiments.md),
// and every other file a slot of the page reads (web/src/experiments/<name>.ts: `file`, `config`),
// e.g. output sensitivity under Adam's sign step.
const experiments = JSON.parse(m.experimentNamesJson());
const slots = Object.values((await loadRegistry()).EXPERIMENT_SLOTS);
// A slot with `summarize` (its file NAME.summary) draws a summary of the document, what its figure,
// caption, verdict and prose read (experiments/types.ts ExperimentDecl.summarize: warmup-length's
// runs without their loss curves, angular-update's angles as the mean over the layers' groups):
// written from the whole NAME.json, which stays for the figure's downloads.
const summarize = (name) => {
  const doc = JSON.parse(readFileSync(`${root}public/data/exp/${name}.json`, 'utf8'));
  const slot = slots.find((s) => s.experiment === name && s.summarize);
  writeFileSync(`${root}public/data/exp/${name}.summary.json`, JSON.stringify(slot.summarize(doc)) + '\n');
  process.stderr.write(`precompute: wrote public/data/exp/${name}.summary.json\n`);
};
const summarized = (name) => slots.some((s) => s.experiment === name && s.summarize);
for (const name of experiments)
  if (which === 'experiments' || which === 'all' || which === `exp:${name}`) {
    run(name, `exp:${name}`, {}, 'public/data/exp');
    for (const s of slots) if (s.experiment === name && ![name, `${name}.summary`].includes(s.file)) run(s.file, `exp:${name}`, s.config, 'public/data/exp');
    if (summarized(name)) summarize(name);
  }
// The placement composer (fig16) as it opens: its reference lines and its opening preset computed
// as the composed placement, with the page's own configs (lib/composer.ts), so that the build draws
// the figure and a reader's page starts no engine until the spec changes (lib/composer-run.svelte.ts).
if (which === 'composer' || which === 'all') {
  const vite = await ssrLoader();
  try {
    const c = await vite.ssrLoadModule('/src/lib/composer.ts');
    const doc = { reference: compute('exp:init-profile', c.REFERENCE_CONFIG), composed: compute('exp:init-profile', c.OPENING_CONFIG), precomputed: true };
    writeFileSync(`${root}public/${c.COMPOSER_FILE}`, JSON.stringify(doc) + '\n');
    process.stderr.write(`precompute: wrote public/${c.COMPOSER_FILE}\n`);
  } finally {
    await vite.close();
  }
}
if (which === 'summaries') for (const name of experiments.filter(summarized)) summarize(name);
await import('./reproduction.mjs');
process.exit(0);
