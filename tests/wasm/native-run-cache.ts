// native-run-cache.ts — the documents of the native CLI's runs that quick-verdicts.test.ts asks for,
// kept between test runs on this machine the way ccache keeps objects (scripts/ccache-env.sh), and
// under a key of everything that decides a document's bits:
//   - the bytes of the `lnx` binary (its code, as compiled for this machine's CPU: -march=native),
//   - the bytes of every shared library it loads (ldd: libm's exp, log and tanh are chosen at load
//     time for the CPU's features, and change with the C library),
//   - the CPU's model and feature flags (/proc/cpuinfo), for the same reason,
//   - the command's arguments (the experiment, its config, one thread: the runs are deterministic),
//   - the bytes of each file the command reads (`inputs`: the article's text that the CLI loads
//     from public/data/text for a text run; wasm/cli/lnx.cpp load_texts), or that it is absent.
// A change to any of them is a new key: the run is made again and its document kept. A run is one
// process on one thread; the same binary on the same arguments writes the same bytes (the engine's
// own PRNG, a fixed reduction order: tests/wasm/threads.test.ts), so a kept document is the run's,
// not a stand-in. The verdicts and the reference documents are read and judged on every run.
// A fresh machine, or a changed engine, runs everything, as it compiles everything.
//   LNX_NO_RUN_CACHE=1        run everything, keep nothing
//   LNX_RUN_CACHE_DIR=DIR     where (default: $XDG_CACHE_HOME or ~/.cache, then ln-explorable/native-runs)
// Entries not used for 30 days are removed when one is written.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

const dir = process.env.LNX_RUN_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ln-explorable', 'native-runs');
const enabled = !process.env.LNX_NO_RUN_CACHE;

/** What the test run did: runs made, documents reused. */
export const cacheCounts = { ran: 0, reused: 0 };
export const cacheDir = enabled ? dir : null;

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** The shared libraries `binary` loads, from ldd's "name => /path (addr)" lines; [] where ldd is
 *  missing (then the key holds the binary and the CPU only). */
function sharedLibraries(binary: string): string[] {
  try {
    const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
    return [...out.matchAll(/=>\s*(\/\S+)/g)].map((m) => m[1]).sort();
  } catch {
    return [];
  }
}

/** The CPU's model and feature flags (the first processor's), or '' where /proc/cpuinfo is missing. */
function cpuFeatures(): string {
  try {
    const first = readFileSync('/proc/cpuinfo', 'utf8').split('\n\n')[0];
    return first
      .split('\n')
      .filter((l) => /^(vendor_id|cpu family|model|model name|stepping|flags)\s*:/.test(l))
      .join('\n');
  } catch {
    return '';
  }
}

const machineKeys = new Map<string, string>();
/** The part of the key that does not depend on the arguments: binary, libraries, CPU. */
function machineKey(binary: string): string {
  let k = machineKeys.get(binary);
  if (k === undefined) {
    const parts = [sha(readFileSync(binary)), ...sharedLibraries(binary).map((p) => `${p} ${sha(readFileSync(p))}`), sha(cpuFeatures())];
    k = sha(parts.join('\n'));
    machineKeys.set(binary, k);
  }
  return k;
}

/** Removes the entries not used for MAX_AGE_MS (a hit touches its file), and what a run killed
 *  while writing left a day ago. */
function prune(now: number) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    try {
      if (now - statSync(p).mtimeMs > (f.endsWith('.tmp') ? MAX_AGE_MS / 30 : MAX_AGE_MS)) rmSync(p, { force: true });
    } catch {
      // another test run removed it first
    }
  }
}

/** A file's bytes for the key: their hash, or that it is absent. */
const fileKey = (path: string): string => {
  try {
    return `${path} ${sha(readFileSync(path))}`;
  } catch {
    return `${path} absent`;
  }
};

/** The stdout of `binary args…`: kept from an earlier run under the same key, or `run()`'s, then
 *  kept. `inputs`: every file the command reads besides the binary and its libraries. */
export async function cachedRun(binary: string, args: readonly string[], run: () => Promise<string>, inputs: readonly string[] = []): Promise<string> {
  if (!enabled) {
    cacheCounts.ran++;
    return run();
  }
  const key = sha([machineKey(binary), JSON.stringify(args), ...inputs.map(fileKey)].join('\n'));
  const file = join(dir, `${key}.json`);
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { args?: unknown; stdout?: unknown };
    if (typeof entry.stdout === 'string' && JSON.stringify(entry.args) === JSON.stringify(args)) {
      const now = new Date();
      utimesSync(file, now, now);
      cacheCounts.reused++;
      return entry.stdout;
    }
  } catch {
    // absent, or unreadable (a run cut short while writing it cannot leave one: see the rename)
  }
  const stdout = await run();
  cacheCounts.ran++;
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ args, binary, stdout, at: new Date().toISOString() }));
  renameSync(tmp, file);
  prune(Date.now());
  return stdout;
}
