// experiments/types.ts — the contract of an experiment's declaration (experiments/<name>.ts: one file
// per engine experiment the page draws, found by lib/slots.ts) and the small shape language its
// document is declared in: one declaration gives the document's TypeScript type (ShapeOf) and the
// run-time check of the real documents (shapeProblem; tests/unit/experiments.test.ts checks every
// public/data/exp/*.json against its slot's shape).
import type { ExperimentResult } from '../engine/documents';

/**
 * The slot names of the experiment documents, each with its document's type. Every
 * experiments/<name>.ts adds its slots by declaration merging:
 *   declare module './types' { interface ExperimentSlots { stepSize: StepSizeResult } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ExperimentSlots {}

/** A verdict rule (experiments/verdicts.js): the claim's verdict from a document (and, for a slot
 *  with `verdictWith`, the document of that slot beside it; null when there is none). */
export type VerdictRule = (doc: never, withDoc?: never) => { verdict: string };

/** One result slot drawn from an engine experiment. */
export interface ExperimentDecl {
  /** the engine's experiment (wasm/experiments/registry.cpp) */
  experiment: string;
  /** its precomputed document: public/data/exp/<file>.json (scripts/precompute.mjs writes it with
   *  `config`); `<experiment>.summary` for a slot with `summarize` */
  file: string;
  /** The page loads a summary of the reference, not the whole document: what its figure, caption,
   *  verdict and prose read, in the document's own shape (scripts/precompute.mjs writes
   *  public/data/exp/<experiment>.summary.json with this from the full <experiment>.json, which
   *  stays in the site for the figure's downloads). A live run is summarized the same way before it
   *  is compared with the reference (lib/doc-compare.ts). Pure, and the same numbers to the bit for
   *  what the page reads. */
  summarize?: (doc: never) => object;
  /** the config of a recompute: the engine's defaults but what is listed */
  config: Record<string, unknown>;
  /** the small setting a reader can recompute in seconds (the figure's "small" setting): the
   *  fields it sets over `config`, each away from the engine's default */
  small: Record<string, unknown>;
  /** the small setting is ticked when the page opens (a reference run of tens of minutes) */
  smallFirst?: boolean;
  /** what a reader may set in the figure's settings form: engine fields of the experiment's config,
   *  each under the URL key `<url>.<field>` (and the small setting as `<url>.setting=small|full`);
   *  `url` begins with the id of the figure that shows the form (lib/settings.ts builds its table) */
  settings?: { url: string; fields: readonly string[] };
  /** the document's own keys (besides ExperimentResult's) */
  shape: Shape;
  /** the verdict of the claim its figure tests (the run list's headline) */
  verdict?: VerdictRule;
  /** the slot whose document the verdict reads beside this one (the article's verdict on output
   *  sensitivity reads the random perturbation's and Adam's sign step's): a reader's run of this
   *  slot alone is judged without it, and its headline says so */
  verdictWith?: keyof ExperimentSlots;
  /** further claims its document decides: page-chrome key `runs.verdict.<key>` → rule */
  alsoVerdicts?: Record<string, VerdictRule>;
}

/** An experiment file's default export: its slots. */
export const slots = <T extends { [K in keyof ExperimentSlots]?: ExperimentDecl }>(t: T): T => t;

// ---- shapes -----------------------------------------------------------------------------------
export type Shape =
  | { t: 'number' | 'string' }
  | { t: 'list' | 'record' | 'nullable' | 'optional'; s: Shape }
  | { t: 'oneOf'; l: readonly string[] }
  | { t: 'object'; f: Readonly<Record<string, Shape>> };

export const num = { t: 'number' } as const;
export const str = { t: 'string' } as const;
export const list = <S extends Shape>(s: S) => ({ t: 'list', s }) as const;
/** an object whose keys are names (placements, depths …), each value of shape `s` */
export const record = <S extends Shape>(s: S) => ({ t: 'record', s }) as const;
export const nullable = <S extends Shape>(s: S) => ({ t: 'nullable', s }) as const;
/** a key that may be absent (an object's field only) */
export const optional = <S extends Shape>(s: S) => ({ t: 'optional', s }) as const;
export const oneOf = <const L extends readonly string[]>(...l: L) => ({ t: 'oneOf', l }) as const;
/** an object with these keys (extra keys are allowed and ignored) */
export const obj = <const F extends Record<string, Shape>>(f: F) => ({ t: 'object', f }) as const;
/** a mean and standard deviation over seeds, with each seed's value */
export const seedStat = obj({ mean: num, std: num, per_seed: list(num) });
export const meanStd = obj({ mean: num, std: num });
export const meanStdArr = obj({ mean: list(num), std: list(num) });

type Opt<F> = { [K in keyof F]: F[K] extends { t: 'optional' } ? K : never }[keyof F];
/** The TypeScript type a shape declares. */
export type ShapeOf<S> = S extends { t: 'number' }
  ? number
  : S extends { t: 'string' }
    ? string
    : S extends { t: 'oneOf'; l: readonly (infer L)[] }
      ? L
      : S extends { t: 'list'; s: infer X }
        ? ShapeOf<X>[]
        : S extends { t: 'record'; s: infer X }
          ? Record<string, ShapeOf<X>>
          : S extends { t: 'nullable'; s: infer X }
            ? ShapeOf<X> | null
            : S extends { t: 'optional'; s: infer X }
              ? ShapeOf<X>
              : S extends { t: 'object'; f: infer F }
                ? { [K in Exclude<keyof F, Opt<F>>]: ShapeOf<F[K]> } & { [K in Opt<F>]?: ShapeOf<F[K]> }
                : never;

/** An experiment's document: the header every one has and the keys its shape declares. */
export type ExperimentDoc<S> = ExperimentResult & ShapeOf<S>;

/** Where `v` does not have shape `s` ('placements.post.slope: not a number'), or null. */
export function shapeProblem(s: Shape, v: unknown, at = ''): string | null {
  const here = (what: string) => `${at || '(document)'}: ${what}`;
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  switch (s.t) {
    case 'number':
      return typeof v === 'number' ? null : here('not a number');
    case 'string':
      return typeof v === 'string' ? null : here('not a string');
    case 'oneOf':
      return s.l.includes(v as string) ? null : here(`not one of ${s.l.join(', ')}`);
    case 'nullable':
    case 'optional':
      return v == null ? null : shapeProblem(s.s, v, at);
    case 'list':
      if (!Array.isArray(v)) return here('not a list');
      return v.reduce<string | null>((p, x, i) => p ?? shapeProblem(s.s, x, `${at}[${i}]`), null);
    case 'record':
      if (!isObject(v)) return here('not an object');
      return Object.entries(v).reduce<string | null>((p, [k, x]) => p ?? shapeProblem(s.s, x, at ? `${at}.${k}` : k), null);
    case 'object':
      if (!isObject(v)) return here('not an object');
      for (const [k, f] of Object.entries(s.f)) {
        if (!(k in v) && f.t !== 'optional') return here(`no key "${k}"`);
        const p = shapeProblem(f, v[k], at ? `${at}.${k}` : k);
        if (p) return p;
      }
      return null;
  }
}
