// prerender.d.mts — the type of scripts/prerender.mjs, for vite.config.ts (its build plugin).
/** Write every language's article into the built page (dist/index.html, dist/zh/index.html);
 *  throws with a message saying what is missing. Resolves to the files written. */
export function prerender(opts?: { log?: (s: string) => void }): Promise<string[]>;
