// prerender.d.mts — the type of scripts/prerender.mjs, for vite.config.ts (its build plugin).
/** Write the `lang` article into dist/index.html; throws with a message saying what is missing. */
export function prerender(opts?: { lang?: 'en' | 'zh'; log?: (s: string) => void }): Promise<void>;
