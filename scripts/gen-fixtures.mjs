// gen-fixtures.mjs — `npm run gen:fixtures`: the pinned short loss trajectories of
// tests/fixtures/trajectories.json, one per placement × optimizer of the engine's registries, made
// by the single-threaded WebAssembly engine (deterministic across CPUs, unlike the native build:
// docs/engine.md). tests/wasm/trajectories.test.ts requires the wasm builds to reproduce them bit
// for bit; tests/cpp/trajectory_test.cpp the native build to float precision. Regenerate only when a
// change is meant to change the numbers, and say so in the commit.
import { writeFileSync } from 'node:fs';
import { SPEC_OPTIONS, specKnobs } from '../tests/webgpu/engine-checks.js';
import { loadEngine } from './load-engine.mjs';

export const FIXTURE = 'tests/fixtures/trajectories.json';
/** The model and run every trajectory shares; small enough for a fraction of a second. */
export const BASE = { layers: 2, d: 32, d_ff: 64, vocab: 64, seq: 16, batch: 4, steps: 10, warmup: 3, seed: 3 };
/**
 * One run per placement × optimizer, each optimizer at its suggested lr and default settings; then,
 * for Post-LN and Pre-LN with the first optimizer, one run per non-default value of every other
 * choice of a training run (the model's attention, norm type, final norm, output layer and input
 * scale, and the warm-up's shape: the variants); then, with the first optimizer, every literature
 * placement preset (the schema's placement_presets) and every placement-spec option of the GPU
 * checks (SPEC_OPTIONS: DyT, none, QK-norm, ReZero's gate, B2T, all together), and ReZero's preset
 * with SGD (a learnable gate with SGD is allowed: docs/engine.md). A choice that only applies under
 * another's value (text_lang under data = text) is left at its default; data = text learns bytes,
 * so its variant has vocab 256 (the engine's rule text_data) and records its validation loss.
 */
export function fixtureConfigs(schema) {
  const first = schema.optimizers[0];
  const byPlacement = schema.placements.flatMap((p) => schema.optimizers.map((o) => ({ ...BASE, placement: p.name, optimizer: o.name, lr: o.suggested_lr })));
  const train = schema.configs.find((c) => c.name === 'train');
  const knobs = train.fields.filter((f) => f.type === 'choice' && !f.only_when && f.name !== 'placement' && f.name !== 'optimizer');
  const needs = (f, c) => (f.name === 'data' && c === 'text' ? { vocab: 256 } : {});
  const variants = ['post', 'pre'].flatMap((placement) =>
    knobs.flatMap((f) =>
      f.choices.filter((c) => c !== f.default).map((c) => ({ ...BASE, placement, optimizer: first.name, lr: first.suggested_lr, [f.name]: c, ...needs(f, c) })),
    ),
  );
  const literature = schema.placement_presets.filter((p) => p.source !== 'registry');
  const presets = literature.map((p) => ({ ...BASE, placement: p.name, optimizer: first.name, lr: first.suggested_lr, placement_spec: p.spec }));
  const options = Object.values(SPEC_OPTIONS).map((spec) => ({ ...BASE, optimizer: first.name, lr: first.suggested_lr, ...specKnobs(spec) }));
  const sgd = schema.optimizers.find((o) => o.name === 'sgd');
  const rezero = literature.find((p) => p.name === 'rezero');
  const gateSgd = { ...BASE, placement: rezero.name, optimizer: sgd.name, lr: sgd.suggested_lr, placement_spec: rezero.spec };
  return [...byPlacement, ...variants, ...presets, ...options, gateSgd];
}

export function trajectory(m, config) {
  const run = new m.TrainRun(JSON.stringify(config));
  run.step(config.steps);
  const doc = JSON.parse(run.resultJson(0));
  run.delete();
  return { status: doc.status, loss: doc.loss, grad_norm: doc.grad_norm, ...(doc.val_loss ? { val_loss: doc.val_loss } : {}) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const m = await loadEngine('st');
  const schema = JSON.parse(m.schemaJson());
  const runs = fixtureConfigs(schema).map((config) => ({ config, ...trajectory(m, config) }));
  writeFileSync(
    new URL(`../${FIXTURE}`, import.meta.url),
    JSON.stringify({ made_by: 'scripts/gen-fixtures.mjs (wasm-st)', engine: m.engineVersion(), runs }, null, 1) + '\n',
  );
  console.log(`wrote ${FIXTURE}: ${runs.length} trajectories`);
}
