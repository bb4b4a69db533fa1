// content-docs.d.mts — the type of scripts/content-docs.mjs, for tests/unit/content-docs.test.ts.
/** ui-keys.md: the page chrome's English strings, and each figure in page order (its label, its
 *  English strings, its keys). Throws when a key has no row or a row names no key. */
export function renderUiKeys(x: {
  chrome: Record<string, string>;
  figures: { id: string; label: string; text: Record<string, string>; keys: string[] }[];
}): string;
/** prose-numbers.md: PROSE_NUMBERS's keys and, for each {{key}} the articles quote, where. */
export function renderProseNumbers(x: { keys: readonly string[]; uses: Record<string, string[]> }): string;
