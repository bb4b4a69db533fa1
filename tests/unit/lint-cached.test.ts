// lint-cached.test.ts — scripts/lint-cached.mjs (the habits' Prettier and ESLint, each file checked
// again only when it is not known to pass): a file that fails is named and fails the run; once it
// passes it is remembered and not checked again; a change to its bytes checks it again. Prettier's
// side, which is quick; ESLint's shares the remembering.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
// a folder git does not ignore (the script takes git's list of files), removed afterwards
const scratch = join(root, `tests/unit/.lint-scratch-${process.pid}`);
const cache = mkdtempSync(join(tmpdir(), 'lnx-lint-cache-'));
mkdirSync(scratch, { recursive: true });
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

const run = (): { rc: number; out: string } => {
  try {
    const out = execFileSync(process.execPath, ['scripts/lint-cached.mjs', 'prettier', scratch], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: cache },
    });
    return { rc: 0, out };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { rc: err.status, out: err.stdout };
  }
};

it('checks a file until it passes, then only when its bytes change', () => {
  const f = join(scratch, 'x.ts');
  writeFileSync(f, 'export const a   = 1\n');
  let r = run();
  expect(r.rc).toBe(1);
  expect(r.out).toMatch(/\[warn\] tests\/unit\/\.lint-scratch-\d+\/x\.ts/);
  expect(r.out).toMatch(/prettier: 1 files, 1 checked, 0 known to pass/);
  writeFileSync(f, 'export const a = 1;\n');
  r = run();
  expect([r.rc, r.out]).toEqual([0, expect.stringMatching(/prettier: 1 files, 1 checked, 0 known to pass/)]);
  r = run();
  expect([r.rc, r.out]).toEqual([0, expect.stringMatching(/prettier: 1 files, 0 checked, 1 known to pass/)]);
  writeFileSync(f, 'export const a  = 2;\n');
  r = run();
  expect(r.rc).toBe(1);
  expect(r.out).toMatch(/1 checked, 0 known to pass/);
});
