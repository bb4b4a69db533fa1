// load.ts — loads a WebAssembly flavour of the engine in Node (Vitest): scripts/load-engine.mjs,
// typed.
import type { LnxModule } from '../../public/wasm/lnx';
// @ts-expect-error — a plain ES module without typings; its one export is typed here
import { loadEngine as load } from '../../scripts/load-engine.mjs';

export type Flavour = 'st' | 'mt';

export const loadEngine = (flavour: Flavour): Promise<LnxModule> => load(flavour);
