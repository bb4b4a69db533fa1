#!/usr/bin/env node
// lint-cached.mjs — Prettier's check and ESLint over the given folders and files, each file checked
// again only when it is not known to pass: a file that passed is remembered under a hash of its
// path and bytes and of everything else that decides its result (the tool, its version, its
// configuration, package-lock.json: the plugins' versions), in ~/.cache/ln-explorable/lint, as
// ccache remembers objects. Both tools' rules here look at one file at a time (ESLint's recommended
// sets, not type-aware; Prettier), so a file's result depends on nothing else. Unlike the tools' own
// --cache, whose entries are keyed by absolute path, a clone in another folder finds them too.
//   node scripts/lint-cached.mjs prettier|eslint PATH…
// The files are the ones the tool itself would take under PATH (git's list of tracked and untracked,
// not ignored files there, each asked of the tool: Prettier's ignore file and inferred parser,
// ESLint's ignores and whether a config applies to it). Exits non-zero when a file fails, printing
// what the tool says of it. LNX_NO_LINT_CACHE=1 checks every file and remembers nothing.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
process.chdir(root);
const [tool, ...paths] = process.argv.slice(2);
if (!['prettier', 'eslint'].includes(tool) || paths.length === 0) {
  console.error('usage: node scripts/lint-cached.mjs prettier|eslint PATH…');
  process.exit(2);
}
const sha = (b) => createHash('sha256').update(b).digest('hex');
const read = (f) => (existsSync(f) ? readFileSync(f) : Buffer.from('absent'));

// every file git knows under the paths (tracked, or untracked and not ignored), that exists
const candidates = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...paths], { encoding: 'utf8' })
  .split('\0')
  .filter((f) => f && existsSync(f));

const version = JSON.parse(readFileSync(`node_modules/${tool}/package.json`, 'utf8')).version;
const configs = tool === 'prettier' ? ['.prettierrc', '.prettierrc.json', '.prettierignore', 'package.json'] : ['eslint.config.js'];
const toolKey = sha(
  [tool, version, process.version, ...configs.map((f) => `${f} ${sha(read(f))}`), `package-lock.json ${sha(read('package-lock.json'))}`].join('\n'),
);
const enabled = !process.env.LNX_NO_LINT_CACHE;
const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ln-explorable', 'lint', toolKey);
const fileKey = (f) => sha(`${f}\0${sha(readFileSync(f))}`);
const known = (f) => enabled && existsSync(join(dir, fileKey(f)));
const remember = (files) => {
  if (!enabled || files.length === 0) return;
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, fileKey(f)), '');
};

let failed = false;
let files = [];
let checked = [];
if (tool === 'prettier') {
  const prettier = await import('prettier');
  const ignorePath = '.prettierignore';
  for (const f of candidates) {
    const info = await prettier.getFileInfo(f, { ignorePath });
    if (!info.ignored && info.inferredParser) files.push(f);
  }
  checked = files.filter((f) => !known(f));
  const passed = [];
  for (const f of checked) {
    const options = { ...(await prettier.resolveConfig(f)), filepath: f };
    if (await prettier.check(readFileSync(f, 'utf8'), options)) passed.push(f);
    else {
      console.log(`[warn] ${f}`);
      failed = true;
    }
  }
  if (failed) console.log('[warn] Code style issues found in the above file(s). Run Prettier with --write to fix.');
  remember(passed);
} else {
  const { ESLint } = await import('eslint');
  const eslint = new ESLint();
  for (const f of candidates) if (!(await eslint.isPathIgnored(f)) && (await eslint.calculateConfigForFile(f)) !== undefined) files.push(f);
  checked = files.filter((f) => !known(f));
  if (checked.length) {
    const results = await eslint.lintFiles(checked);
    const bad = results.filter((r) => r.errorCount + r.warningCount > 0);
    if (bad.length) {
      failed = true;
      console.log(await (await eslint.loadFormatter('stylish')).format(bad));
    }
    remember(results.filter((r) => r.errorCount + r.warningCount === 0).map((r) => relative(root, r.filePath)));
  }
}
console.log(
  `${tool}: ${files.length} files, ${checked.length} checked${enabled ? `, ${files.length - checked.length} known to pass unchanged (${dir})` : ' (LNX_NO_LINT_CACHE: every file)'}`,
);
process.exit(failed ? 1 : 0);
