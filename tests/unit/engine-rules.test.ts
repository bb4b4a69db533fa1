// engine-rules.ts: the engine's answer to checkConfig, placed where a form shows it.
import { describe, expect, it } from 'vitest';
import { ENGINE_FIELD, engineProblems, problemAt } from '../../web/src/lib/engine-rules';
import { GRID, PROBE } from '../../web/src/lib/settings';
import { COMPOSER } from '../../web/src/lib/composer';
import { GRID_RULES, MODEL_RULES, PLACEMENT_SPEC_FIELDS, PLACEMENT_SPEC_RULES, PROBE_RULES } from '../../web/src/generated/engine-schema';

const rules = { a_rule: { field: 'model', key: 'err.a' }, w_rule: { field: 'warnings', key: 'warn.w' } };

describe('engineProblems', () => {
  it.each([
    { name: 'not asked, or being asked', answer: null, errors: [], warnings: [] },
    { name: 'the engine could not be asked', answer: { ok: null, message: 'no engine' } as const, errors: [], warnings: [] },
    { name: 'taken, no warnings', answer: { ok: true, warnings: [] } as const, errors: [], warnings: [] },
    {
      name: 'a rule the form names',
      answer: { ok: false, rule: 'a_rule', message: 'too big' } as const,
      errors: [{ field: 'model', key: 'err.a', message: 'too big' }],
      warnings: [],
    },
    {
      name: "a rule the form does not name: the engine's words",
      answer: { ok: false, rule: 'new_rule', message: 'something new' } as const,
      errors: [{ field: ENGINE_FIELD, key: null, message: 'something new' }],
      warnings: [],
    },
    {
      name: "a single field's bound (no rule)",
      answer: { ok: false, message: 'steps must be …' } as const,
      errors: [{ field: ENGINE_FIELD, key: null, message: 'steps must be …' }],
      warnings: [],
    },
    {
      name: 'warnings, named and not',
      answer: {
        ok: true,
        warnings: [
          { rule: 'w_rule', message: 'w1' },
          { rule: 'other', message: 'w2' },
        ],
      } as const,
      errors: [],
      warnings: [
        { field: 'warnings', key: 'warn.w', message: 'w1' },
        { field: ENGINE_FIELD, key: null, message: 'w2' },
      ],
    },
    {
      name: 'a rule named like an Object property is not a rule of the form',
      answer: { ok: false, rule: 'toString', message: 'm' } as const,
      errors: [{ field: ENGINE_FIELD, key: null, message: 'm' }],
      warnings: [],
    },
  ])('$name', ({ answer, errors, warnings }) => expect(engineProblems(answer as never, rules)).toEqual({ errors, warnings }));

  it("problemAt finds a field's first problem", () => {
    const list = [{ field: 'model', key: 'k', message: 'm' }];
    expect(problemAt(list, 'model')?.key).toBe('k');
    expect(problemAt(list, 'runs')).toBeUndefined();
  });

  it("the forms name only rules of the engine's configs (generated from wasm/configs.cpp)", () => {
    const grid = GRID_RULES.map((r) => r.name);
    const probe = [...PROBE_RULES, ...MODEL_RULES].map((r) => r.name);
    for (const r of Object.keys(GRID.rules!)) expect(grid, r).toContain(r);
    for (const r of Object.keys(PROBE.rules!)) expect(probe, r).toContain(r);
  });

  it("the composer names every rule across the placement spec's keys, and only those", () => {
    expect(Object.keys(COMPOSER.rules!).sort()).toEqual(PLACEMENT_SPEC_RULES.map((r) => r.name).sort());
    for (const r of Object.values(COMPOSER.rules!)) expect(Object.keys(PLACEMENT_SPEC_FIELDS), r.key).toContain(r.field);
  });
});
