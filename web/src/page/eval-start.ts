// page/eval-start.ts — marks when the live page's modules start to be evaluated: page/boot.ts
// imports it first, so it runs before any other module of that chunk (bench/mainthread_bench.mjs
// reports the evaluation as the measure "boot: evaluate").
performance.mark('lnx:boot-evaluate');
