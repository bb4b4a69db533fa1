#!/usr/bin/env node
// wasm_runner.mjs — runs one engine job in the WebAssembly module under Node and prints its wall
// time as JSON, for scripts/bench.mjs. The module is loaded by scripts/load-engine.mjs.
//   node bench/wasm_runner.mjs <st|mt> <threads> probe '<config json>'
//   node bench/wasm_runner.mjs <st|mt> <threads> train '<config json>'     (seconds per step, after
//                                                     3 untimed steps that let V8 tier up)
//   node bench/wasm_runner.mjs <st|mt> <threads> grid  '<config json>'
//   node bench/wasm_runner.mjs <st|mt> <threads> composer '<init-profile config json>'  (the
//                                                     composer's redraw: one init-profile call, after one
//                                                     untimed call that lets V8 tier up; `times` of 5 calls)
//   node bench/wasm_runner.mjs <st|mt> <threads> exp:NAME '<config json>'   (an experiment; also the
//                                                     process's CPU seconds, every thread's)
// <st-fma|mt-fma>: the FMA flavour with its fused kernel on (docs/engine.md, "Flavours").
import { loadEngine } from '../scripts/load-engine.mjs';

const [flavour, threads, job, config = '{}'] = process.argv.slice(2);
const m = await loadEngine(flavour);
m.setThreads(Number(threads));
if (flavour.endsWith('-fma')) m.setGemmFma(true);
let t0 = performance.now();
let extra = {};
if (job === 'probe') {
  const run = new m.ProbeRun(config);
  while (!run.done()) run.step(1);
  run.delete();
} else if (job === 'train') {
  const run = new m.TrainRun(config);
  const warm = run.step(3);
  t0 = performance.now();
  let steps = warm;
  while (run.status() === 'running') steps = run.step(5);
  extra = { steps: steps - warm, seconds_per_step: (performance.now() - t0) / 1000 / (steps - warm) };
  run.delete();
} else if (job === 'grid') {
  const run = new m.GridRun(config);
  while (!run.done()) run.step(10);
  run.delete();
} else if (job === 'composer') {
  const once = () => {
    const s0 = performance.now();
    const run = new m.ExperimentRun('init-profile', config);
    while (!run.done()) run.step(1);
    run.resultJson();
    run.delete();
    return (performance.now() - s0) / 1000;
  };
  const first = once();
  const times = Array.from({ length: 5 }, once);
  t0 = performance.now() - 1000 * [...times].sort((a, b) => a - b)[2];
  extra = { first, times };
} else if (job.startsWith('exp:')) {
  const cpu0 = process.cpuUsage();
  const run = new m.ExperimentRun(job.slice(4), config);
  while (!run.done()) run.step(1);
  run.delete();
  const cpu = process.cpuUsage(cpu0);
  extra = { cpu_seconds: (cpu.user + cpu.system) / 1e6 };
} else {
  throw new Error(`unknown job ${job}`);
}
const seconds = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ flavour, threads: m.threads(), job, seconds, ...extra }));
process.exit(0);
