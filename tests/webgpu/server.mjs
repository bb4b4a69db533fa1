// server.mjs — a tiny static server for the WebGPU test and benchmark: serves the repository root
// with COOP/COEP (so pages are cross-origin isolated, as under `vite preview`), the right MIME types
// for .mjs/.wasm, and TypeScript sources (web/src/**/*.ts) transpiled on the fly with the
// project's `typescript` package, so the page can import web/src/engine/backend-choice.ts unbundled.
// Leaves out: caching, directory listings, anything but GET.
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** Starts the server on a free port of 127.0.0.1; resolves to { url, close }. */
export function serve(root = ROOT) {
  const server = http.createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(root, path));
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    res.setHeader('Cache-Control', 'no-store');
    try {
      if (!file.startsWith(root) || !(await stat(file)).isFile()) throw new Error('not found');
      let body = await readFile(file);
      if (extname(file) === '.ts') {
        body = ts.transpileModule(body.toString(), {
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
        }).outputText;
      }
      res.setHeader('Content-Type', MIME[extname(file)] ?? 'application/octet-stream');
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) })),
  );
}
