// schema.test.ts — what is generated from the engine's schema (web/src/generated/engine-schema.ts,
// the reference of docs/json-schema.md) is what the engine says today, and the engine refuses
// exactly what the schema's bounds say it refuses.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LnxModule } from '../../public/wasm/lnx';
// @ts-expect-error — plain ES module
import { DOCS_PATH, TS_PATH, renderDocs, renderTs } from '../../scripts/schema-codegen.mjs';
import { GRID_FIELDS, PROBE_FIELDS, TRAIN_FIELDS, type FieldInfo } from '../../web/src/generated/engine-schema';
import { loadEngine } from './load';

let m: LnxModule;
let schema: unknown;
beforeAll(async () => {
  m = await loadEngine('st');
  schema = JSON.parse(m.schemaJson());
});

const root = new URL('../../', import.meta.url);

describe('the generated schema files', () => {
  it(`${TS_PATH} is up to date (else: npm run gen:schema)`, () => {
    expect(readFileSync(new URL(TS_PATH, root), 'utf8')).toBe(renderTs(schema));
  });
  it(`the reference in ${DOCS_PATH} is up to date (else: npm run gen:schema)`, () => {
    const md = readFileSync(new URL(DOCS_PATH, root), 'utf8');
    expect(md).toBe(renderDocs(schema, md));
  });
});

describe('the engine enforces the bounds the schema states', () => {
  const ctor = { probe: 'ProbeRun', train: 'TrainRun', grid: 'GridRun' } as const;
  const fieldsOf = { probe: PROBE_FIELDS, train: TRAIN_FIELDS, grid: GRID_FIELDS } as Record<string, Record<string, FieldInfo>>;
  for (const name of ['probe', 'train', 'grid'] as const) {
    it(`${name}: a value just outside each numeric bound is refused, naming the key`, () => {
      const make = (cfg: object) => () => new m[ctor[name]](JSON.stringify(cfg)).delete();
      for (const [key, f] of Object.entries(fieldsOf[name])) {
        if (f.min == null || f.max == null) continue;
        // a setting of another optimizer is refused for that reason: test it with its own optimizer
        const opt = f.onlyWhen?.optimizer ? { optimizer: f.onlyWhen.optimizer[0] } : {};
        const wrap = (x: number) => ({ ...opt, [key]: f.type.endsWith('[]') ? [x] : x });
        const below = f.minExclusive ? f.min : f.type.startsWith('number') ? f.min - Math.abs(f.min) * 1e-9 - 1e-12 : f.min - 1;
        const above = f.type.startsWith('number') ? f.max * (1 + 1e-9) + 1e-12 : f.max + 1 > f.max ? f.max + 1 : f.max + 2; // 2^53 + 1 is not a double
        expect(make(wrap(below)), `${name}.${key} = ${below}`).toThrowError(new RegExp(`lnx: ${key}`));
        expect(make(wrap(above)), `${name}.${key} = ${above}`).toThrowError(new RegExp(`lnx: ${key}`));
      }
    });
  }
});
