// The engine's layering (issue 28): the config types (wasm/config.h) are the floor, the public API
// (wasm/api.h) builds on them, and no engine header below the API includes it. Only what stands on
// the API may: the Embind adapters, the experiments' look inside a run and their sequence of grids
// (experiments/grid_sequence.h: GridRun after GridRun).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const wasm = new URL('../../wasm', import.meta.url).pathname;
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const headers = walk(wasm).filter((f) => f.endsWith('.h'));
const ABOVE_THE_API = ['api.h', 'js_adapters.h', 'train_access.h', 'experiments/grid_sequence.h'];

describe('engine layering', () => {
  it('no engine header below the API includes api.h', () => {
    const offenders = headers
      .map((f) => relative(wasm, f))
      .filter((f) => !ABOVE_THE_API.includes(f))
      .filter((f) => /#include "(\.\.\/)*api\.h"/.test(readFileSync(join(wasm, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
  it("config.h stands on nothing of the engine but the optimizers' hyperparameters", () => {
    const includes = [...readFileSync(join(wasm, 'config.h'), 'utf8').matchAll(/#include "([^"]+)"/g)].map((m) => m[1]);
    expect(includes).toEqual(['optim/optimizer.h']);
  });
  it('the model does not include the public API', () => {
    expect(readFileSync(join(wasm, 'model.h'), 'utf8')).not.toMatch(/#include "api\.h"/);
  });
});
