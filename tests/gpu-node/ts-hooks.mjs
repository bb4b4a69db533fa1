// ts-hooks.mjs — a Node module hook (registered by register-ts.mjs) that transpiles the page's
// TypeScript sources (web/src/**/*.ts) on import with the project's `typescript` package, so the
// Node GPU harness runs the page's own backend code (backend-choice.ts, gpu-grid.ts) unbundled, as
// tests/webgpu/server.mjs does for Chromium. Types are erased, nothing is checked (svelte-check does
// that). Leaves out: .svelte files, extension-less imports (the engine sources use `import type`).
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const source = ts.transpileModule(await readFile(new URL(url), 'utf8'), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    fileName: url,
  }).outputText;
  return { format: 'module', source, shortCircuit: true };
}
