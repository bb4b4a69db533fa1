// composer-run.svelte.ts — the placement composer's live engine calls (lib/composer.ts has the spec
// and its configs): the reference lines (Post-LN and Pre-LN, computed once), and the composed
// placement, recomputed on every change of the spec: debounced, and a change while a computation
// runs cancels it (its AbortSignal) so the newest spec alone is drawn. Each is one init-profile call
// (docs/experiments.md) in the worker, except where the precomputed file has it (public/data/
// composer.json, scripts/precompute.mjs): the reference lines, and the composed placement of the
// composer's opening settings, so a reader who reads past the composer starts no engine, and the
// build draws it (prerender). An engine refusal (a spec the engine does not take: B2T without
// a norm after the FFN's add) is kept as the message to show, never thrown, with the name of the rule
// across the spec's keys it breaks where the engine's check names one (the composer's own words).
// Leaves out: the run list ("Train it" adds grid runs through result-slots.svelte.ts).
import { EngineError, checkConfig, runExperiment, type ConfigCheck } from '../engine/client';
import type { Settings } from './fields';
import { COMPOSER_FILE, REFERENCE_CONFIG, isOpening, profileConfig, type ComposerPrecomputed, type InitProfileDoc } from './composer';

/** How long the composer waits after a change before it computes (a slider dragged computes once). */
export const COMPOSER_DEBOUNCE_MS = 150;

export class ComposerRun {
  /** Post-LN and Pre-LN at the composer's size */
  reference = $state.raw<InitProfileDoc | null>(null);
  /** the composed placement of the newest spec computed */
  composed = $state.raw<InitProfileDoc | null>(null);
  /** idle | computing | error */
  phase = $state<'idle' | 'computing' | 'error'>('idle');
  /** the engine's message when it refused the spec */
  error = $state<string | null>(null);
  /** the engine's check of the refused spec, which names the rule across the spec's keys it breaks
   *  (PLACEMENT_SPEC_RULES), if one: the composer says it in its own words (COMPOSER.rules, through
   *  lib/engine-rules.ts engineProblems) */
  errorCheck = $state.raw<ConfigCheck | null>(null);
  /** how long the newest composed computation took, ms (null: the precomputed document is drawn) */
  ms = $state<number | null>(null);
  /** when the newest composed computation finished (ISO date; a download's provenance); null while
   *  the precomputed document is drawn */
  at: string | null = null;

  #timer: ReturnType<typeof setTimeout> | null = null;
  #abort: AbortController | null = null;
  #refStarted = false;
  #precomputed: ComposerPrecomputed | null = null;
  #loading: Promise<ComposerPrecomputed | null> | null = null;
  /** requests so far (one waiting for the file is dropped when a newer one was made) */
  #asked = 0;

  /** Takes the precomputed documents (the file COMPOSER_FILE): the reference lines, and the composed
   *  placement of the opening settings where nothing is drawn yet (the build draws the composer from
   *  them; a page fetches them before the composer is made live: `load`). */
  usePrecomputed(doc: ComposerPrecomputed): void {
    this.#precomputed = doc;
    this.reference ??= doc.reference;
    this.composed ??= doc.composed;
  }

  /** Fetches the precomputed documents once (from the site); resolves with them, or
   *  with null where they cannot be had (the composer then computes everything live). */
  load(base: string = import.meta.env.BASE_URL): Promise<ComposerPrecomputed | null> {
    this.#loading ??= fetch(`${base}${COMPOSER_FILE}`)
      .then((r) => (r.ok ? (r.json() as Promise<ComposerPrecomputed>) : null))
      .then((d) => (d?.reference && d.composed ? (this.usePrecomputed(d), d) : null))
      .catch(() => null);
    return this.#loading;
  }

  /** The reference lines: the precomputed ones, else computed once. */
  ensureReference(): void {
    if (this.#refStarted) return;
    this.#refStarted = true;
    void this.load().then((pre) => {
      if (pre) return; // usePrecomputed drew them
      runExperiment<InitProfileDoc>('init-profile', REFERENCE_CONFIG)
        .then((d) => (this.reference = d))
        .catch((e: unknown) => {
          this.#refStarted = false;
          this.error = (e as Error).message;
        });
    });
  }

  /** Asks for the composed placement of settings `s`: the precomputed one for the opening settings,
   *  else after the debounce, cancelling a computation still running. */
  request(s: Settings): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#abort?.abort();
    const asked = ++this.#asked;
    const pre = this.#precomputed;
    if (pre && isOpening(s)) {
      this.#abort = null;
      return this.#draw(pre.composed, null, null);
    }
    this.phase = 'computing';
    // the opening settings before the file has come: wait for it (a failed fetch: compute them)
    const go = () => (isOpening(s) ? void this.load().then((d) => asked === this.#asked && (d ? this.request(s) : this.#run(s))) : this.#run(s));
    this.#timer = setTimeout(go, COMPOSER_DEBOUNCE_MS);
  }

  /** Draws composed document `d`: live (how long it took, when it finished) or precomputed (nulls). */
  #draw(d: InitProfileDoc, ms: number | null, at: string | null): void {
    this.composed = d;
    this.ms = ms;
    this.at = at;
    this.error = null;
    this.errorCheck = null;
    this.phase = 'idle';
  }

  #run(s: Settings): void {
    this.#timer = null;
    const ctl = new AbortController();
    this.#abort = ctl;
    const t0 = performance.now();
    runExperiment<InitProfileDoc>('init-profile', profileConfig(s), undefined, ctl.signal)
      .then((d) => {
        if (!ctl.signal.aborted) this.#draw(d, performance.now() - t0, new Date().toISOString());
      })
      .catch((e: unknown) => {
        if (ctl.signal.aborted || (e instanceof EngineError && e.kind === 'cancelled')) return;
        this.composed = null;
        this.error = (e as Error).message.replace(/^lnx: /, '');
        this.errorCheck = null;
        this.phase = 'error';
        // the engine's check of the same config names the rule it breaks, where one does
        if (e instanceof EngineError && e.kind === 'engine')
          void checkConfig('init-profile', profileConfig(s)).then((c) => {
            if (this.#abort === ctl && !ctl.signal.aborted) this.errorCheck = c;
          });
      });
  }

  #users = 0;

  /** A composer on the page uses the run; the returned function says it left. What is pending stops
   *  only when the last one leaves: the run is the module's one, and an island or an embed may mount
   *  a new figure before the one it replaces is destroyed (whose leaving must not cancel the new
   *  one's request). */
  attach(): () => void {
    this.#users += 1;
    return () => {
      this.#users -= 1;
      if (this.#users === 0) this.stop();
    };
  }

  /** Stops what is pending (no composer is on the page). */
  stop(): void {
    this.#asked += 1;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#abort?.abort();
    if (this.phase === 'computing') this.phase = 'idle';
  }
}

/** The page's one composer run (the figure draws it; its downloads read it). */
export const composerRun = new ComposerRun();
