// result-slots.svelte.ts — the current results the figures draw and the prose quotes, and the live runs
// that replace them.
//
// The slots: `probe` (Figures 2 and 3 and their prose), `grid` (Figure 4), and one per experiment
// document a figure draws (EXPERIMENT_SLOTS: Figures A to G, ids fig5 … fig11). Each slot holds the precomputed
// document from public/data/ (the reference, always kept) and adds every live run to the run list
// (lib/runs/): a complete run, or what a cancelled or failed one had computed, marked partial.
// `data`, the slot's current result, is the newest complete run the reader shows, else the
// reference; a cancelled, failed or diverged run never becomes it. While a run streams, `partial`
// holds the document so far (the grid's growing curves, which Figure 4 draws). What the figure
// draws on top (`drawnRun`, `drawn`: lib/runs/drawn-run.ts) is what its caption and badge describe:
// in a slot whose figure draws partial runs too (the grid's), the newest shown run in whatever
// state it is (streaming, cancelled), else `data`.
// The forms that set the next run of each slot are not here (lib/lab.svelte.ts). One instance is
// created by the live page (page/live-page.svelte.ts) and shared through context (getResults():
// each island sets it, page/FigureIsland.svelte).
import { getContext, setContext } from 'svelte';
import { EngineError, engineInfo, jobsAhead, runExperiment, runGrid, runProbe, setPaused, type EngineReady, type Progress } from '../engine/client';
import type { ExperimentResult, GridConfig, GridResult, ProbeConfig, ProbeResult } from '../engine/documents';
import { experimentWork, gridWork, probeWork, type Work } from './cost';
import { speed, type Lane } from './speed.svelte';
import { cpuBackend, cpuOnlyJob } from '../engine/backend-choice';
import { calibrateAuto, engineKey as engineKeyOf } from './calibrate';
import { EXPERIMENT_INFO, GRID_DEFAULTS, PROBE_DEFAULTS, type ExperimentName } from '../generated/engine-schema';
import { LiveRuns } from './runs/live-runs.svelte';
import { proseNumbers, proseNumbersInSlices } from './prose-numbers';
import type { Lang } from '../content/types';
import { settingsDiff, type RunEntry } from './runs/entry';
import { describeRun, drawnRun, type DrawnRun } from './runs/drawn-run';
import type { JobOptions } from '../engine/protocol';
import { EXPERIMENT_SLOTS, SLOT_NAMES, precomputedPath, type ExperimentSlot, type SlotName } from './slots';

export type Source = 'precomputed' | 'live';
/** 'offered': a link asked for a run longer than it may start by itself (LINK_BUDGET_MS); the
 *  settings are filled in and Recompute shows the estimate. */
export type RunPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'error' | 'offered';

/** What a link may start by itself, all its runs together: runs estimated (or, once they run,
 *  measured) to take longer than what is left of it are offered instead (docs/sharing.md). */
export const LINK_BUDGET_MS = 10000;

/**
 * The time the runs a link starts by themselves share (Lab.applyLink makes one per link): each takes
 * its estimate from it as it starts, a run whose speed is not known what is left, and a run that
 * does not fit in what is left is offered. A link carries the whole view, every figure's settings
 * the sender changed; with a budget per run, a copied link started each of them that fitted 10 s
 * alone (a probe, Figure 4's grid and 14 experiments in the e2e suite's link: about a minute of the
 * recipient's CPU, one job after the other), and the Recompute the reader pressed waited behind them.
 */
export class LinkBudget {
  constructor(public leftMs = LINK_BUDGET_MS) {}
}

/** How a run is started: its cost (lib/cost.ts; teaches the device's speed, lib/speed.svelte.ts) and,
 *  for a run a link asked for, the link's budget: what it may take before it is stopped and offered
 *  instead. */
export interface StartOptions {
  work?: Work | null;
  budget?: LinkBudget;
  /** a run with a budget and no known speed measures the speed first (a first visit's link must
   *  not start a long run to find out it is long): lib/calibrate.ts calibrateAuto by default (the
   *  CPU engine only; on WebGPU the run's own ETA stops it after 3 s) */
  calibrate?: () => Promise<unknown>;
}

export interface RunState {
  phase: RunPhase;
  progress: Progress | null;
  /** engine message for 'error' */
  message: string;
  /** flavour etc. of the engine that produced the last live result */
  engine: EngineReady | null;
  elapsedMs: number;
  /** started behind another figure's run (the engine runs one at a time): waiting for it */
  queued?: boolean;
}

const idle = (): RunState => ({ phase: 'idle', progress: null, message: '', engine: null, elapsedMs: 0 });

/** One result slot: its reference (precomputed) document, its runs in the run list, the current
 *  result drawn from them, and the live run's state. */
export class Slot<T> {
  /** the precomputed document (the reference; its config is the default) */
  precomputed = $state.raw<T | null>(null);
  /** loading until a document arrived or loading failed */
  loadState = $state<'loading' | 'ready' | 'error'>('loading');
  loadError = $state('');
  run = $state<RunState>(idle());
  /** engine config of the run in progress (the URL names it while it runs); null when idle */
  pending = $state.raw<Record<string, unknown> | null>(null);
  /** the live document so far while a run streams one (the grid's growing curves); null otherwise */
  partial = $state.raw<T | null>(null);
  /** the estimate of the run a link asked for and that was offered instead of started (phase 'offered') */
  offerMs = $state<number | null>(null);
  /** why it was offered: longer than a link starts by itself, or longer than what the link's
   *  other runs left of that time (LinkBudget) */
  offerWhy = $state<'long' | 'shared'>('long');
  /** the last run was cancelled or failed and its partial result is kept in the run list */
  keptPartial = $state(false);
  private abort: AbortController | null = null;

  /** `name`: the slot's name in the run list; `runs`: the list (a slot of its own in tests);
   *  `partials`: its figure draws every shown run with a document, a streaming, cancelled or
   *  failed one too (Figure 4 the grid's), so the newest of them is drawn on top */
  constructor(
    readonly name: SlotName = 'probe',
    readonly runs: LiveRuns = new LiveRuns([name], null),
    readonly partials = false,
  ) {}

  /** the newest complete, shown run (the isolated one when it is complete), or null */
  get entry(): RunEntry | null {
    const d = this.runs.drawn(this.name).filter((e) => e.status === 'done');
    return d[d.length - 1] ?? null;
  }
  /** the run list's entry of the run streaming now (its document drawn as `partial`), or null */
  get streamingEntry(): RunEntry | null {
    if (this.partial == null) return null;
    const r = this.runs.of(this.name).filter((e) => e.status === 'running');
    return r[r.length - 1] ?? null;
  }
  /** the current complete document: the entry's, else the reference */
  get data(): T | null {
    return (this.entry?.doc as T | undefined) ?? this.precomputed;
  }
  get source(): Source | null {
    return this.entry ? 'live' : this.precomputed ? 'precomputed' : null;
  }
  /** the run the figure draws on top and its state (runs/drawn-run.ts): in a slot drawing partial
   *  runs the newest shown one, streaming, cancelled or failed too; else `entry`; null: the
   *  reference alone. The caption's line and the badge name it. */
  get drawnRun(): DrawnRun | null {
    return drawnRun(this.name, this.runs.drawn(this.name), this.partials, defaultSteps(this.name));
  }
  /** one of this slot's entries as drawn: its state and how far it got (Figure 4's legend names
   *  every drawn run so) */
  describe(e: RunEntry): DrawnRun {
    return describeRun(this.name, e, defaultSteps(this.name));
  }
  /** the document the figure draws on top: the streaming run's so far while one streams (its
   *  curves are drawn from its first report), a cancelled one's where it is drawn on top, else
   *  `data`. The caption's numbers read this one. */
  get drawn(): T | null {
    return this.partial ?? ((this.partials ? this.drawnRun?.entry.doc : null) as T | null | undefined) ?? this.data;
  }
  /** ISO date the live result in `data` was completed (provenance of exports) */
  get liveAt(): string | null {
    return this.entry?.finishedAt ?? null;
  }

  /** 'ready' when a complete result is drawn, 'error' when there is none and none is coming. */
  get state(): 'loading' | 'ready' | 'error' {
    if (this.data) return 'ready';
    if (this.run.phase === 'running') return 'loading';
    return this.loadState === 'loading' ? 'loading' : 'error';
  }

  async load(url: string) {
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      this.use((await res.json()) as T);
    } catch (e) {
      this.loadError = e instanceof Error ? e.message : String(e);
      this.loadState = 'error';
    }
  }

  /** Take `doc` as the precomputed document (what load does once it has fetched it). */
  use(doc: T) {
    this.precomputed = doc;
    this.loadState = 'ready';
  }

  /** Start a live run of `config`; `go` gets the progress callback (with the document so far, for a
   *  run that streams one) and the signal. The run becomes an entry of the run list. */
  async start(
    go: (onProgress: (p: Progress, partial?: T) => void, signal: AbortSignal, options: JobOptions) => Promise<T>,
    config: object | null = null,
    { work = null, budget, calibrate = () => calibrateAuto(runGrid, engineInfo) }: StartOptions = {},
  ) {
    this.cancel();
    this.offerMs = null;
    // a job the WebGPU engine does not run is estimated at the CPU build's speed (speed.svelte.ts laneFor)
    const cpuOnly = cpuOnlyRun(this.name, config as Record<string, unknown> | null);
    let before = speed.estimateMs(work, cpuOnly);
    if (budget && before == null && work != null) {
      await calibrate().catch(() => null);
      before = speed.estimateMs(work, cpuOnly);
    }
    // what this run may take of the link's budget (null: a reader's run, no limit)
    let budgetMs: number | null = null;
    if (budget) {
      budgetMs = budget.leftMs;
      if ((before != null && before > budgetMs) || budgetMs <= 0) {
        this.offer(before);
        this.run = { ...idle(), phase: 'offered' };
        return;
      }
      budget.leftMs -= before ?? budgetMs;
    }
    const ac = new AbortController();
    this.abort = ac;
    this.pending = config as Record<string, unknown> | null;
    this.run = { ...idle(), phase: 'running', queued: jobsAhead() > 0 };
    const id = this.runs.begin(this.name, (config ?? {}) as Record<string, unknown>);
    this.keptPartial = false;
    let engineKey: string | null = null;
    let lane: Lane = 'page';
    // the engine's description: the key of the speed a run teaches, and the entry's provenance (asked
    // again at the end: a GPU that failed mid-run hands the run to the CPU engine). A failure to get
    // it does not fail the run. A CPU-only job on a page on WebGPU runs on the CPU build: it teaches
    // that build's speed (the 'cpu' lane), not the GPU's.
    const engineNow = () =>
      Promise.resolve()
        .then(engineInfo)
        .catch(() => null);
    void engineNow().then((e) => {
      if (!e) return;
      lane = cpuOnly && e.backend === 'webgpu' ? 'cpu' : 'page';
      engineKey = lane === 'cpu' ? cpuBackend(e.crossOriginIsolated) : engineKeyOf(e);
    });
    let offered = false;
    try {
      const result = await go(
        (p, partial) => {
          if (this.abort !== ac) return;
          this.run = { ...this.run, progress: p, queued: false };
          this.runs.progress(id, p.fraction, p.elapsedMs, partial);
          if (work != null && engineKey && !p.paused) speed.measure(ac, engineKey, work, p.fraction, p.elapsedMs, lane);
          // a run a link started that turns out longer than it may take by itself: stop, offer it
          // (decided after 3 s: the first steps' ETA includes the engine's start-up and overshoots)
          if (budgetMs != null && p.etaMs != null && p.elapsedMs >= 3000 && p.elapsedMs + p.etaMs > budgetMs) {
            offered = true;
            this.offer(p.elapsedMs + p.etaMs);
            ac.abort();
          }
        },
        ac.signal,
        { exact: this.reproduces(config) },
      );
      if (this.abort !== ac) return;
      const engine = await engineNow();
      const elapsedMs = this.run.progress?.elapsedMs ?? 0;
      this.runs.finish(id, { status: 'done', doc: result, engine: engine as RunEntry['engine'], elapsedMs });
      this.run = { phase: 'done', progress: null, message: '', engine, elapsedMs };
    } catch (e) {
      const err = e instanceof EngineError ? e : new EngineError('engine', String(e));
      // a run the link started and the page stopped was not the reader's: it leaves no entry
      if (offered) this.runs.remove(id);
      else
        this.runs.finish(id, {
          status: err.kind === 'cancelled' ? 'partial' : 'error',
          message: err.kind === 'cancelled' ? '' : err.message,
          engine: (await engineNow()) as RunEntry['engine'],
          elapsedMs: this.run.progress?.elapsedMs ?? 0,
        });
      this.keptPartial = !offered && this.runs.get(id) != null;
      if (this.abort !== ac) return;
      if (offered && err.kind === 'cancelled') this.run = { ...idle(), phase: 'offered' };
      else this.run = { ...this.run, phase: err.kind === 'cancelled' ? 'cancelled' : 'error', message: err.message };
    } finally {
      if (this.abort === ac) {
        this.abort = null;
        this.pending = null;
        this.resume(); // a run the reader paused and then cancelled leaves the engine running
      }
      speed.finish(ac); // what the run measured (its latest report), once per run
    }
  }

  /** Offer the link's run (estimated at `ms` here, null: unknown) instead of running it, and say why:
   *  longer than a link starts by itself, or than what the link's other runs left of that time. */
  private offer(ms: number | null) {
    this.offerMs = ms;
    this.offerWhy = ms != null && ms > LINK_BUDGET_MS ? 'long' : 'shared';
  }

  cancel() {
    this.abort?.abort();
  }

  /** A run of `config` asks for the reference's settings (none differ: runs/entry.ts settingsDiff),
   *  so it runs with the deterministic arithmetic and can reproduce the reference to the last bit;
   *  any other run may use the FMA flavour's fused multiply-adds (engine/protocol.ts JobOptions). */
  reproduces(config: object | null): boolean {
    const ref = (this.precomputed as { config?: Record<string, unknown> } | null)?.config;
    return ref != null && settingsDiff((config ?? {}) as Record<string, unknown>, ref).length === 0;
  }

  /** the reader paused this slot's run (the engine idles: lib/engine/client.ts setPaused) */
  pausedByReader = $state(false);
  pause() {
    if (this.run.phase !== 'running') return;
    this.pausedByReader = true;
    setPaused(true);
  }
  resume() {
    if (!this.pausedByReader) return;
    this.pausedByReader = false;
    setPaused(false);
  }
}

// The slot table (EXPERIMENT_SLOTS, SlotName, SLOT_NAMES, precomputedPath) is in ./slots.ts; it is
// re-exported here for the page's components.
export { EXPERIMENT_SLOTS, SLOT_NAMES, precomputedPath, type ExperimentSlot, type SlotName } from './slots';

/** The reference a figure draws muted under its current result: the precomputed document while a
 *  live run is the current result, else null (the reference is then the current result itself). */
export const referenceUnder = <T>(slot: Pick<Slot<T>, 'source' | 'precomputed'>): T | null => (slot.source === 'live' ? slot.precomputed : null);

/** What a figure draws of a slot: `c`, its chart of the drawn document; `ref`, the same chart of
 *  the precomputed document while a live run is drawn (muted under it; null otherwise), `chart`
 *  getting the live chart then; `axes`, the axes holding both (the live run's own without a
 *  reference). `slot` (or the function giving it) and `chart` are read reactively: a view may pick
 *  the slot or the variant. */
export function withReference<T, C, A>(of: Slot<T> | (() => Slot<T>), chart: (doc: T | null, live?: C) => C, axes: (c: C, ref: C | null) => A) {
  const slot = typeof of === 'function' ? of : () => of;
  const c = $derived(chart(slot().data));
  const ref = $derived.by(() => {
    const doc = referenceUnder(slot());
    return doc ? chart(doc, c) : null;
  });
  const both = $derived(axes(c, ref));
  return {
    get slot() {
      return slot();
    },
    get c() {
      return c;
    },
    get ref() {
      return ref;
    },
    get axes() {
      return both;
    },
  };
}

/** The legend entry of that muted reference (page-chrome string runs.referenceMuted). */
export const referenceLegend = (t: (k: string) => string, color: string) => ({ label: t('runs.referenceMuted'), color, opacity: 0.35 });

/** The slot of experiment `exp` in the page's results (a component's setup only: it reads the
 *  context), typed as the document its figure draws. */
export const experimentSlot = <T>(exp: ExperimentSlot): Slot<T> => getResults().exp[exp] as unknown as Slot<T>;

/** The documents the prose's numbers are computed from: every slot's, drawn or precomputed. */
interface NumberDocs {
  probe: ProbeResult | null;
  grid: GridResult | null;
  exp: Record<ExperimentSlot, ExperimentResult | null>;
}

export class Results {
  /** every slot's live runs (IndexedDB; in memory only for an embed) */
  readonly runs: LiveRuns;
  /** the run lists are shown beside the figures (not in an embed) */
  lab = true;
  /** how the page names a slot's figure ("Figure 4"), for the run list's messages (set by the live page) */
  slotLabel: (s: SlotName) => string = (s) => s;
  probe: Slot<ProbeResult>;
  grid: Slot<GridResult>;
  /** the experiment documents (EXPERIMENT_SLOTS) */
  readonly exp: Record<ExperimentSlot, Slot<ExperimentResult>>;

  constructor(runs: LiveRuns = new LiveRuns(SLOT_NAMES)) {
    this.runs = runs;
    this.probe = new Slot<ProbeResult>('probe', runs);
    // Figure 4 draws every shown grid run, a streaming or cancelled one too
    this.grid = new Slot<GridResult>('grid', runs, true);
    this.exp = Object.fromEntries((Object.keys(EXPERIMENT_SLOTS) as ExperimentSlot[]).map((k) => [k, new Slot<ExperimentResult>(k, runs)])) as Record<
      ExperimentSlot,
      Slot<ExperimentResult>
    >;
  }

  /** A slot by name. */
  slot(name: SlotName): Slot<ProbeResult> | Slot<GridResult> | Slot<ExperimentResult> {
    return name === 'probe' ? this.probe : name === 'grid' ? this.grid : this.exp[name];
  }

  /** Fetch every slot's precomputed document (precomputedPath). Resolves when all have loaded or failed. */
  loadPrecomputed(base = import.meta.env.BASE_URL): Promise<void> {
    return Promise.all(SLOT_NAMES.map((n) => this.slot(n).load(`${base}${precomputedPath(n)}`))).then(() => undefined);
  }

  /** Take the precomputed documents given (the build's prerender reads them from public/). */
  usePrecomputed(docs: Partial<Record<SlotName, unknown>>) {
    for (const n of SLOT_NAMES) if (docs[n] != null) (this.slot(n) as Slot<unknown>).use(docs[n]);
  }

  /** The numbers the prose quotes (lib/prose-numbers.ts), from each slot's drawn document (the
   *  streaming run's while one streams: a caption states what is drawn at every moment) or from its
   *  precomputed one (the article's values, which a live run's numbers are compared with). */
  proseNumbers(lang: Lang, from: 'drawn' | 'precomputed' = 'drawn'): Record<string, string> {
    const docs = this.#numberDocs(from);
    const known = this.#recallNumbers(lang, docs);
    if (known) return known;
    const value = proseNumbers(docs.probe, docs.grid, lang, docs.exp);
    this.#numbers[`${from} ${lang}`] = { lang, docs, value };
    return value;
  }

  /** The article's numbers from the precomputed documents (proseNumbers(lang, 'precomputed')),
   *  computed in slices with `between()` awaited between them (lib/prose-numbers.ts
   *  proseNumbersInSlices) and remembered: the page's first reading of them, which would otherwise
   *  be one long task, then finds them computed. */
  async prepareNumbers(lang: Lang, between: () => Promise<void>, sliceMs?: number): Promise<void> {
    const docs = this.#numberDocs('precomputed');
    if (this.#recallNumbers(lang, docs)) return;
    this.#numbers[`precomputed ${lang}`] = { lang, docs, value: await proseNumbersInSlices(docs.probe, docs.grid, lang, docs.exp, between, sliceMs) };
  }

  /** The record of numbers computed last from the drawn documents and from the precomputed ones,
   *  per language, each with the documents it was computed from; either serves a reading of
   *  the other kind from the same documents (while no live run is drawn, the drawn documents are
   *  the precomputed ones). The documents are replaced, never changed in place (a slot's
   *  `precomputed` and `partial` are raw state, a run entry's document is set once), so the same
   *  documents give the same record. */
  #numbers: Partial<Record<`${'drawn' | 'precomputed'} ${Lang}`, { lang: Lang; docs: NumberDocs; value: Record<string, string> }>> = {};

  #numberDocs(from: 'drawn' | 'precomputed'): NumberDocs {
    return {
      probe: this.probe[from],
      grid: this.grid[from],
      exp: Object.fromEntries(Object.entries(this.exp).map(([k, s]) => [k, s[from]])) as NumberDocs['exp'],
    };
  }

  #recallNumbers(lang: Lang, docs: NumberDocs): Record<string, string> | null {
    const same = (a: NumberDocs, b: NumberDocs) =>
      a.probe === b.probe && a.grid === b.grid && Object.keys(a.exp).every((k) => a.exp[k as ExperimentSlot] === b.exp[k as ExperimentSlot]);
    return Object.values(this.#numbers).find((m) => m.lang === lang && same(m.docs, docs))?.value ?? null;
  }

  /** Run an entry's settings again (a stored or imported run): a new entry of the same slot. */
  rerun(e: Pick<RunEntry, 'slot' | 'config'>) {
    return this.recompute(e.slot, structuredClone($state.snapshot(e.config)));
  }

  /** Run `config` live in slot `name` (the grid streams its curves into `partial`). */
  recompute(name: SlotName, config: Record<string, unknown>, opts: StartOptions = {}) {
    const work = { work: costOf(name, config), ...opts };
    if (name === 'probe') return this.probe.start((onP, signal, o) => runProbe(config as Partial<ProbeConfig>, onP, signal, o), config, work);
    if (name !== 'grid') {
      const { experiment } = EXPERIMENT_SLOTS[name];
      return this.exp[name].start((onP, signal, o) => runExperiment(experiment, config, (p) => onP(p), signal, o), config, work);
    }
    this.grid.partial = null;
    const stream = (onP: (p: Progress, partial?: GridResult) => void) => (p: Progress, partial?: GridResult) => {
      this.grid.partial = partial ?? null;
      onP(p, partial);
    };
    return this.grid
      .start((onP, signal, o) => runGrid(config as Partial<GridConfig>, stream(onP), signal, o), config, work)
      .finally(() => {
        if (this.grid.run.phase !== 'running') this.grid.partial = null;
      });
  }
}

/** The FLOPs of a slot's run of `c` (its missing keys the engine's defaults; lib/cost.ts); null
 *  without a config, and where an experiment's cost is not modelled (cost.ts experimentWork). */
export function costOf(name: SlotName, c: Record<string, unknown> | null): Work | null {
  if (!c) return null;
  if (name === 'probe') return probeWork({ ...PROBE_DEFAULTS, ...c } as never);
  if (name === 'grid') return gridWork({ ...GRID_DEFAULTS, ...c } as never);
  const experiment = EXPERIMENT_SLOTS[name].experiment as ExperimentName;
  return experimentWork(experiment, { ...EXPERIMENT_INFO[experiment]?.defaults, ...c });
}

/** The steps a run of slot `name` is set to when its config leaves them out: the grid's engine
 *  default (the one slot whose partial runs are drawn: runs/drawn-run.ts reachedSteps); null else. */
const defaultSteps = (name: SlotName): number | null => (name === 'grid' ? GRID_DEFAULTS.steps : null);

/** Whether a slot's run of `c` is a job the WebGPU engine does not run (an experiment but the phase
 *  diagram, a grid on
 *  the article's text: engine/backend-choice.ts cpuOnlyJob), so that on a page on WebGPU it runs on
 *  the CPU build, and is estimated at that build's speed (speed.svelte.ts laneFor). */
export function cpuOnlyRun(name: SlotName, c: Record<string, unknown> | null): boolean {
  if (name === 'probe' || name === 'grid') return cpuOnlyJob({ type: name, config: c }) != null;
  return cpuOnlyJob({ type: 'experiment', name: EXPERIMENT_SLOTS[name].experiment, config: c }) != null;
}

const KEY = Symbol('lnx.results');
export const setResults = (r: Results) => setContext(KEY, r);
export const getResults = (): Results => getContext<Results>(KEY);
