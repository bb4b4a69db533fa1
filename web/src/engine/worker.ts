/// <reference lib="webworker" />
// worker.ts — the engine's module worker. Loads the Emscripten glue from public/wasm/ (threaded
// flavour when the page is cross-origin isolated, single-threaded otherwise; recipe:
// /work/shared/research/wasm-worker-recipe.md), then runs jobs one at a time (runner.ts).
// Messages: protocol.ts. The page never imports this file; client.ts creates it.
import type { CreateLnx, LnxModule } from './lnx-module';
import type { Reply, Request } from './protocol';
import { errorMessage, runJob } from './runner';

declare const self: DedicatedWorkerGlobalScope;
const post = (r: Reply) => self.postMessage(r);

const flavour = self.crossOriginIsolated ? 'mt' : 'st';
const glueUrl = new URL(`${import.meta.env.BASE_URL}wasm/lnx-${flavour}.mjs`, self.location.origin).href;

const loaded: Promise<LnxModule> = (async () => {
  // Do not pass locateFile: the ES6 glue finds its .wasm / .worker.js next to itself.
  const create = (await import(/* @vite-ignore */ glueUrl)).default as CreateLnx;
  return create({ mainScriptUrlOrBlob: glueUrl });
})();

loaded.then(
  (m) =>
    post({
      type: 'ready',
      version: m.engineVersion(),
      flavour: m.buildFlavour(),
      threads: m.threads(),
      crossOriginIsolated: self.crossOriginIsolated,
    }),
  (e) => post({ type: 'load-error', message: `could not load ${glueUrl}: ${errorMessage(e)}` }),
);

const cancelled = new Set<number>();
let paused = false;
let wake: (() => void) | null = null;
let queue: Promise<void> = Promise.resolve();

const yieldToEvents = () => new Promise<void>((r) => setTimeout(r, 0));
const whilePaused = async () => {
  while (paused) await new Promise<void>((r) => (wake = r));
};

/**
 * Heap in use: allocate 64 KiB blocks until the heap would grow, then free them. Exact to a block
 * for leaks at the top or in the middle of the heap; see protocol.ts ('memory').
 */
function heapReport(m: LnxModule): Extract<Reply, { type: 'memory' }> {
  const mod = m as unknown as { HEAP8: Int8Array; _malloc(n: number): number; _free(p: number): void };
  const size = mod.HEAP8.length;
  const B = 64 << 10;
  const blocks: number[] = [];
  let free = 0;
  for (let i = 0; i < 40000; i++) {
    const p = mod._malloc(B);
    if (!p) break;
    blocks.push(p);
    if (mod.HEAP8.length !== size) break;
    free += B;
  }
  for (const p of blocks) mod._free(p);
  return { type: 'memory', heapBytes: size, usedBytes: size - free, heapBytesAfter: mod.HEAP8.length };
}

self.onmessage = (ev: MessageEvent<Request>) => {
  const req = ev.data;
  switch (req.type) {
    case 'memory':
      loaded.then((m) => post(heapReport(m)), () => {});
      return;
    case 'cancel':
      cancelled.add(req.id);
      return;
    case 'pause':
      paused = true;
      return;
    case 'resume':
      paused = false;
      wake?.();
      wake = null;
      return;
    case 'probe':
    case 'grid':
      queue = queue.then(async () => {
        if (cancelled.has(req.id)) return post({ type: 'cancelled', id: req.id });
        let m: LnxModule;
        try {
          m = await loaded;
        } catch (e) {
          return post({ type: 'error', id: req.id, message: `could not load ${glueUrl}: ${errorMessage(e)}` });
        }
        await runJob(m, req, {
          post,
          cancelled: () => cancelled.has(req.id),
          whilePaused,
          yieldToEvents,
          now: () => performance.now(),
        });
        cancelled.delete(req.id);
      });
      return;
  }
};
