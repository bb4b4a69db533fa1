// setup-tex.ts — Vitest's setup file (vite.config.ts test.setupFiles): KaTeX loads on demand in the
// page (web/src/lib/tex.ts loadTex); the tests render TeX as the build does, after it has loaded.
import { loadTex } from '../../web/src/lib/tex';

await loadTex();
