// wasm-relaxed-fma.test.ts — scripts/wasm-relaxed-fma.mjs on hand-made modules: the prototype
// relaxed_madd (0xfd 0xaf 0x01) is renumbered to the standard one (0xfd 0x85 0x02), and an
// `i32.const 22525`, whose LEB immediate holds the same three bytes (0x41 0xfd 0xaf 0x01, what
// stopped lnx-mt-fma's build once a string's address took that value), is left as it was.
// Needs Binaryen's wasm-dis (the Emscripten install's), as the build does; skipped without it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const hasWasmDis = (() => {
  try {
    execFileSync('wasm-dis', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const V128_ZERO = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
const PROTOTYPE_FMA = [0xfd, 0xaf, 0x01];
const LOOK_ALIKE = [0x41, 0xfd, 0xaf, 0x01, 0x1a]; // i32.const 22525; drop

/** A module of one function: `looks` look-alike constants, then `fmas` prototype relaxed_madd of zeros. */
function module(looks: number, fmas: number): Buffer {
  const body = [0x00];
  for (let i = 0; i < looks; i++) body.push(...LOOK_ALIKE);
  for (let i = 0; i < fmas; i++) body.push(...V128_ZERO, ...V128_ZERO, ...V128_ZERO, ...PROTOTYPE_FMA, 0x1a);
  body.push(0x0b);
  const code = [0x01, ...leb(body.length), ...body];
  return Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 10, ...leb(code.length), ...code]);
}
/** n as an unsigned LEB128 (a section's or a body's size). */
const leb = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...leb(n >> 7)]);

const count = (b: Buffer, p: number[]) => b.reduce((n, _, i) => n + (p.every((x, k) => b[i + k] === x) ? 1 : 0), 0);

function run(bytes: Buffer): { ok: boolean; out: string; bytes: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'lnx-fma-'));
  const file = join(dir, 'm.wasm');
  writeFileSync(file, bytes);
  try {
    const out = execFileSync('node', ['scripts/wasm-relaxed-fma.mjs', file], { encoding: 'utf8', stdio: 'pipe' });
    return { ok: true, out, bytes: readFileSync(file) };
  } catch (e) {
    return { ok: false, out: String((e as { stderr?: string }).stderr ?? e), bytes: readFileSync(file) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!hasWasmDis)('wasm-relaxed-fma.mjs', () => {
  it.each([
    [0, 2],
    [1, 1],
    [1, 3],
    [2, 2],
  ])('%i look-alike immediates and %i relaxed_madd: the instructions renumbered, the immediates kept', (looks, fmas) => {
    const r = run(module(looks, fmas));
    expect(r.ok, r.out).toBe(true);
    expect(count(r.bytes, [0xfd, 0x85, 0x02])).toBe(fmas);
    expect(count(r.bytes, LOOK_ALIKE)).toBe(looks);
    expect(count(r.bytes, PROTOTYPE_FMA)).toBe(looks);
  });
  it('refuses a module without relaxed_madd, and one with more look-alikes than it can tell apart', () => {
    expect(run(module(1, 0)).out).toMatch(/no relaxed_fma in the module/);
    const many = run(module(3, 1));
    expect(many.ok).toBe(false);
    expect(many.out).toMatch(/4 prototype opcodes in the code section but wasm-dis reads 1 relaxed_fma; not rewritten/);
    expect(count(many.bytes, PROTOTYPE_FMA)).toBe(4); // untouched
  });
});
