// harness.d.mts — the type of what the Vitest tests take from tests/e2e/harness.mjs (the tables the
// end-to-end run and they share; the rest of the harness drives Chromium and is used from .mjs only).
/** The figures the end-to-end loop runs (the page's tests that draw a slot), in page order. */
export const TEST_FIGS: readonly string[];
/** Per figure, how the end-to-end loop shrinks its quick setting (form fields and values; `tooSmall`). */
export const E2E_SHRINK: Readonly<Record<string, Readonly<Record<string, string | readonly string[] | boolean>>>>;
