// permalink.ts — the page's view state ⇄ the URL query string. Pure functions.
//
// Covers: the page's own parameters (lang, theme, embed) and the machinery for everything else:
// parameter groups that figures declare (figures/figN/index.ts; figures/registry.ts lists them), each
// with its parameters' parsers and a writer. Parsing checks each parameter on its own; an invalid one
// is reported as an issue and left out, so the page falls back to the default for that parameter
// only. Serialising writes only what differs from the defaults, in a fixed order (the page's
// parameters, then the groups in registry order), commas left readable. Page and embed links, the
// iframe snippet, foreign parameters (utm_…) that survive a rewrite of the address.
// Leaves out: which parameters exist (the figures), reading/writing location and history
// (page/live-page.svelte.ts), showing issues (UrlBanner).
//
// Parameters (docs/sharing.md has the user-facing table):
//   lang=zh|en  theme=light|dark  embed=<a figure id>   and each figure's, e.g. fig1.step=1…6
import type { FigureId, Lang } from '../content/types';

export type Theme = 'light' | 'dark';
/** A parameter value longer than this is refused before it is looked at. */
export const MAX_VALUE_LENGTH = 200;

/** One URL parameter: the part of its group's state a value sets (null: invalid), and the text key
 *  that says what a valid value is ('url.…' in the page strings, 'figN:err.…' in a figure's). */
export interface Param<S> {
  parse(value: string): Partial<S> | null;
  reason: string;
}

/**
 * A group of parameters with a state of its own: a figure's view (key = the figure id, e.g. Figure 1's
 * step), or the run settings of a result slot (key = the slot, e.g. 'probe').
 */
export interface ParamGroup<S extends object = object> {
  key: string;
  /** parameter name ('fig1.step') → its parser */
  params: Record<string, Param<S>>;
  /** the parameters of `s` that differ from the defaults `d`, in a fixed order */
  write(s: S, d: S): [string, string][];
}

/** What the page's links are made of: the figures an embed may name and the groups, in order. */
export interface LinkSpec {
  figures: readonly FigureId[];
  /** every group (`only` absent), or those an embed of figure `only` carries */
  groups(only?: string): readonly ParamGroup[];
}

/** What a link asks for; absent keys mean "the default". `parts[group key]` holds what it names of
 *  that group's state. */
export interface LinkState {
  lang?: Lang;
  theme?: Theme;
  embed?: FigureId;
  parts: Record<string, object>;
}

/** The complete current view, as the page holds it: each group's state (null = unknown, not written). */
export interface ViewState {
  lang: Lang;
  theme?: Theme;
  embed?: FigureId;
  parts: Record<string, object | null>;
}
/** Each group's default state, by group key. */
export type Defaults = Record<string, object>;

export type IssueKind = 'invalid' | 'unknown' | 'duplicate';
/** One parameter of the link that was not used. `reason` is a text key (see UrlBanner). */
export interface LinkIssue {
  param: string;
  /** the raw value, for display (the banner shortens and escapes it) */
  value: string;
  kind: IssueKind;
  /** text key: 'url.…' in the page strings, or 'figN:err.…' in a figure's strings */
  reason: string;
  /** the key of the group the parameter belongs to (a figure's view, a slot's run settings), if any:
   *  a link whose run settings of a slot had one refused runs nothing of that slot (Lab.applyLink) */
  group?: string;
}

// ---- parameter helpers (for the figures' groups) ------------------------------------------------
/** A parameter whose value is one of `values`; `set` turns it into the state it names. */
export const enumParam = <S, T extends string>(values: readonly T[], set: (v: T) => Partial<S>, reason: string): Param<S> => ({
  parse: (v) => ((values as readonly string[]).includes(v) ? set(v as T) : null),
  reason,
});

/** A parameter checked by `check` (null: invalid) into field `key` of the state. */
export const fieldParam = <S, K extends keyof S>(key: K, check: (v: string) => S[K] | null, reason: string): Param<S> => ({
  parse: (v) => {
    const x = check(v);
    return x == null ? null : ({ [key]: x } as unknown as Partial<S>);
  },
  reason,
});

/** A group's `write` result from its candidate parameters: those that are not `false` (= default). */
export const written = (...xs: ([string, string] | false)[]): [string, string][] => xs.filter((x): x is [string, string] => x !== false);

// ---- parsing ----------------------------------------------------------------------------------
/** Names in our namespace that are not parameters are reported; anything else (utm_…) is left alone. */
const OURS = /^(fig|lnx|embed|lang|theme)/i;

type Parser = { parse(v: string, st: LinkState): boolean; reason: string; group?: string };

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x != null && !Array.isArray(x);
/** One parameter's part added to what a group's other parameters set; an object value (Figure 4's
 *  optimizer settings, one parameter each) merges with the one already there. */
function mergePart(prev: object | undefined, part: object): object {
  const out: Record<string, unknown> = { ...prev };
  for (const [k, v] of Object.entries(part)) out[k] = isRecord(v) && isRecord(out[k]) ? { ...(out[k] as object), ...v } : v;
  return out;
}

/** Every parameter name → how it sets a LinkState: the page's three, then each group's. */
function parsers(spec: LinkSpec): Record<string, Parser> {
  const page = <K extends 'lang' | 'theme' | 'embed'>(key: K, values: readonly string[], reason: string): Parser => ({
    parse: (v, st) => values.includes(v) && ((st[key] = v as LinkState[K]), true),
    reason,
  });
  const out: Record<string, Parser> = {
    lang: page('lang', ['zh', 'en'], 'url.lang'),
    theme: page('theme', ['light', 'dark'], 'url.theme'),
    embed: page('embed', spec.figures, 'url.embed'),
  };
  for (const g of spec.groups())
    for (const [name, p] of Object.entries(g.params))
      out[name] = {
        parse: (v, st) => {
          const part = p.parse(v);
          if (part == null) return false;
          st.parts[g.key] = mergePart(st.parts[g.key], part);
          return true;
        },
        reason: p.reason,
        group: g.key,
      };
  return out;
}

/**
 * Parse a query string ("?a=b&…" or "a=b&…"). Each known parameter is checked on its own; an
 * invalid, repeated or unknown-but-ours parameter becomes an issue and is left out of the state.
 */
export function parseLink(spec: LinkSpec, search: string): { state: LinkState; issues: LinkIssue[] } {
  const state: LinkState = { parts: {} };
  const issues: LinkIssue[] = [];
  let q: URLSearchParams;
  try {
    q = new URLSearchParams(search);
  } catch {
    return { state, issues };
  }
  const known = parsers(spec);
  const seen = new Map<string, string[]>();
  for (const [k, v] of q) seen.set(k, [...(seen.get(k) ?? []), v]);
  for (const [name, values] of seen) {
    const parser = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!parser) {
      if (OURS.test(name)) issues.push({ param: name, value: values[0], kind: 'unknown', reason: 'url.unknown' });
      continue;
    }
    const group = parser.group == null ? {} : { group: parser.group };
    if (values.length > 1) {
      issues.push({ param: name, value: values.join(' | '), kind: 'duplicate', reason: 'url.duplicate', ...group });
      continue;
    }
    const v = values[0];
    if (v.length > MAX_VALUE_LENGTH || !parser.parse(v.trim(), state))
      issues.push({ param: name, value: v, kind: 'invalid', reason: v.length > MAX_VALUE_LENGTH ? 'url.tooLong' : parser.reason, ...group });
  }
  return { state, issues };
}

// ---- serialising ------------------------------------------------------------------------------
const enc = (v: string) => encodeURIComponent(v).replace(/%2C/gi, ',');

export interface SerializeOptions {
  /** only the groups an embed of this figure carries */
  only?: string;
  /** write theme= (embeds) */
  theme?: boolean;
  /** write embed= */
  embed?: boolean;
}

/** The view as a query string without "?": embed and lang first, then each group's parameters that
 *  differ from the defaults. */
export function serializeView(spec: LinkSpec, v: ViewState, d: Defaults, o: SerializeOptions = {}): string {
  const out: [string, string][] = [];
  if (o.embed && v.embed) out.push(['embed', v.embed]);
  out.push(['lang', v.lang]);
  if (o.theme && v.theme) out.push(['theme', v.theme]);
  for (const g of spec.groups(o.only)) {
    const s = v.parts[g.key];
    if (s) out.push(...g.write(s, d[g.key]));
  }
  return out.map(([k, val]) => `${k}=${enc(val)}`).join('&');
}

/** Query parameters that are not ours (utm_…) survive a rewrite of the address. */
export function foreignParams(spec: LinkSpec, search: string): [string, string][] {
  const known = parsers(spec);
  const out: [string, string][] = [];
  for (const [k, v] of new URLSearchParams(search)) if (!Object.hasOwn(known, k) && !OURS.test(k)) out.push([k, v]);
  return out;
}

/** The full address of the page showing view `v`, scrolled to `hash` (e.g. "fig3"). */
export function pageLink(spec: LinkSpec, pageUrl: string, v: ViewState, d: Defaults, hash = '', extra: [string, string][] = []): string {
  const base = pageUrl.replace(/[?#].*$/, '');
  const q = [serializeView(spec, v, d), ...extra.map(([k, val]) => `${encodeURIComponent(k)}=${enc(val)}`)].filter(Boolean).join('&');
  return `${base}${q ? `?${q}` : ''}${hash ? `#${hash}` : ''}`;
}

/** The address of one figure alone (no page chrome), in `theme`. */
export function embedLink(spec: LinkSpec, pageUrl: string, fig: FigureId, v: ViewState, theme: Theme, d: Defaults): string {
  const base = pageUrl.replace(/[?#].*$/, '');
  return `${base}?${serializeView(spec, { ...v, embed: fig, theme }, d, { only: fig, theme: true, embed: true })}`;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The copy-paste HTML for a blog post: the iframe and the resizer script (public/embed.js). */
export function embedSnippet(src: string, title: string, height: number, scriptSrc: string): string {
  const h = Number.isFinite(height) && height > 0 ? Math.round(height) : 480;
  return (
    `<iframe src="${attr(src)}" title="${attr(title)}" data-lnx-embed loading="lazy" ` +
    `style="width:100%;height:${h}px;border:0"></iframe>\n` +
    `<script async src="${attr(scriptSrc)}"></script>`
  );
}

/** A raw parameter value made safe and short for display (control characters replaced, ≤ 40 chars). */
export function displayValue(v: string, max = 40): string {
  // eslint-disable-next-line no-control-regex
  const clean = v.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '\ufffd');
  const chars = [...clean];
  return chars.length > max ? chars.slice(0, max).join('') + '…' : clean;
}
