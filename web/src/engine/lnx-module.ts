// lnx-module.ts — the shape of the Embind module the worker loads from public/wasm/lnx-{mt,st}.mjs,
// re-exported from the engine's own hand-written typings (public/wasm/lnx.d.ts), plus the factory
// options the worker passes. Only the worker and its runner see these types; the page talks to the
// engine solely through client.ts. Every object created with `new` must be `.delete()`d.

export type { LnxModule, ProbeRun as LnxProbeRun, GridRun as LnxGridRun, TrainRun as LnxTrainRun } from '../../../public/wasm/lnx.d.ts';
import type { LnxModule, LnxFactoryOptions } from '../../../public/wasm/lnx.d.ts';

export type Flavour = ReturnType<LnxModule['buildFlavour']>;

/** The glue's default export. */
export type CreateLnx = (opts?: LnxFactoryOptions & { mainScriptUrlOrBlob?: string }) => Promise<LnxModule>;
