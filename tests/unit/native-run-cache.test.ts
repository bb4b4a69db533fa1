// native-run-cache.test.ts — the quick verdicts' kept native documents (tests/wasm/native-run-cache.ts):
// a second run of the same binary on the same arguments reuses the first's document; other
// arguments, another binary, a changed input file, or an entry that cannot be read run again; LNX_NO_RUN_CACHE keeps nothing.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const made: string[] = [];
const load = async (env: Record<string, string | undefined>) => {
  vi.resetModules();
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v as string);
  return import('../wasm/native-run-cache');
};
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'lnx-run-cache-'));
  made.push(d);
  return d;
};
afterEach(() => {
  vi.unstubAllEnvs();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the native run cache', () => {
  it('reuses a document only for the same binary and arguments', async () => {
    const dir = scratch();
    const bin = join(dir, 'lnx');
    copyFileSync(existsSync('/bin/true') ? '/bin/true' : process.execPath, bin); // an executable with shared libraries, not run here
    const cache = join(dir, 'cache');
    let runs = 0;
    const run = (out: string) => async () => (runs++, out);
    const c = await load({ LNX_RUN_CACHE_DIR: cache, LNX_NO_RUN_CACHE: undefined });
    expect(await c.cachedRun(bin, ['exp', 'a'], run('{"x":1}'))).toBe('{"x":1}');
    expect(await c.cachedRun(bin, ['exp', 'a'], run('other'))).toBe('{"x":1}');
    expect(runs).toBe(1);
    expect(await c.cachedRun(bin, ['exp', 'b'], run('{"x":2}'))).toBe('{"x":2}');
    expect(runs).toBe(2);
    expect(c.cacheCounts).toEqual({ ran: 2, reused: 1 });
    // an entry that cannot be read is a run again, then kept
    for (const f of readdirSync(cache)) writeFileSync(join(cache, f), '{"stdout":');
    expect(await c.cachedRun(bin, ['exp', 'a'], run('{"x":3}'))).toBe('{"x":3}');
    expect(await c.cachedRun(bin, ['exp', 'a'], run('no'))).toBe('{"x":3}');
    expect(runs).toBe(3);
    // another binary (the same name, one byte more): its own key, in a fresh module (the key of a
    // binary is worked out once per test run)
    appendFileSync(bin, '\0');
    const d = await load({ LNX_RUN_CACHE_DIR: cache });
    expect(await d.cachedRun(bin, ['exp', 'a'], run('{"x":4}'))).toBe('{"x":4}');
    expect(runs).toBe(4);
    // a file the command reads: its bytes are in the key, and so is its absence
    const text = join(dir, 'article.en.txt');
    expect(await d.cachedRun(bin, ['exp', 'a'], run('{"x":5}'), [text])).toBe('{"x":5}');
    writeFileSync(text, 'one');
    expect(await d.cachedRun(bin, ['exp', 'a'], run('{"x":6}'), [text])).toBe('{"x":6}');
    expect(await d.cachedRun(bin, ['exp', 'a'], run('no'), [text])).toBe('{"x":6}');
    writeFileSync(text, 'two');
    expect(await d.cachedRun(bin, ['exp', 'a'], run('{"x":7}'), [text])).toBe('{"x":7}');
    expect(runs).toBe(7);
    expect(readdirSync(cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
  it('keeps nothing under LNX_NO_RUN_CACHE', async () => {
    const dir = scratch();
    const c = await load({ LNX_RUN_CACHE_DIR: join(dir, 'cache'), LNX_NO_RUN_CACHE: '1' });
    let runs = 0;
    for (let i = 0; i < 2; i++) await c.cachedRun(process.execPath, ['x'], async () => (runs++, ''));
    expect(runs).toBe(2);
    expect(c.cacheDir).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
  });
});
