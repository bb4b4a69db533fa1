// format.ts — number and list formatting shared by prose bindings, readouts, tables and axes.
// Pure functions; a value that is missing or not finite always prints as an em dash.
import type { Lang } from '../content/types';

export const DASH_MISSING = '—';

/** Fixed-point with `digits` decimals; '—' for null/undefined/NaN/±Infinity. */
export function fmt(x: number | null | undefined, digits = 2): string {
  if (x == null || !Number.isFinite(x)) return DASH_MISSING;
  const s = x.toFixed(digits);
  return s === '-0' || /^-0\.0*$/.test(s) ? s.slice(1) : s;
}

/** Integer (rounded); '—' when missing. */
export const fmtInt = (x: number | null | undefined): string => fmt(x == null ? x : Math.round(x), 0);

/** A list of numbers: "1.45, 1.47" in English, "1.45、1.47" in Chinese. */
export function fmtList(xs: readonly (number | null | undefined)[] | null | undefined, lang: Lang, digits = 2): string {
  if (!xs || xs.length === 0) return DASH_MISSING;
  return xs.map((x) => fmt(x, digits)).join(lang === 'zh' ? '、' : ', ');
}

const SUP: Record<string, string> = { '-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹' };

/** A learning rate like 0.003 as "3×10⁻³" (plain text, no TeX). */
export function fmtLr(x: number): string {
  if (!Number.isFinite(x) || x <= 0) return String(x);
  const e = Math.floor(Math.log10(x) + 1e-9);
  const m = +(x / 10 ** e).toPrecision(3);
  const pow = `10${String(e).replace(/./g, (c) => SUP[c] ?? c)}`;
  return m === 1 ? pow : `${m}×${pow}`;
}

/** 3 significant digits (values that span decades); '—' when missing. */
export const fmtSci = (x: number | null | undefined): string => (x == null || !Number.isFinite(x) ? DASH_MISSING : x.toPrecision(3));

/** fmtLr, or '—' when missing (a readout or table of learning-rate-like values). */
export const fmtLrOrMissing = (x: number | null | undefined): string => (x == null || !Number.isFinite(x) ? DASH_MISSING : fmtLr(x));

/** A duration in ms as "350 ms" / "4.2 s" / "12 s" / "3 min 05 s" /
 *  "2 h 07 min" (language-neutral units). Under a second in ms (a sub-second run never reads
 *  "0.0 s"); an hour or more in hours and minutes (never "2820 min 17 s"). */
export function fmtDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return DASH_MISSING;
  const t = Math.max(0, ms);
  if (t < 999.5) return `${Math.round(t)} ms`;
  if (t < 9950) return `${(t / 1000).toFixed(1)} s`;
  const s = Math.round(t / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** A date and time, short, in the language `locale` names (a BCP 47 tag: the page's `<html lang>`;
 *  '' the browser's): a run list entry's start. One formatter per locale, made on first use (ICU's
 *  data for a language is read then: milliseconds on a phone, so the page makes it ahead of a
 *  stored run's entry, page/live-page.svelte.ts runsToPrepare). */
export function fmtWhen(iso: string, locale: string): string {
  let f = dateFormats.get(locale);
  if (!f) dateFormats.set(locale, (f = new Intl.DateTimeFormat(locale || undefined, { dateStyle: 'short', timeStyle: 'short' })));
  return f.format(new Date(iso));
}
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Strict decimal parsing for user input (URL parameters, settings fields): "3e-3", "0.001", "500".
 * null for anything else — "", "abc", "0x10", "1_000", "Infinity", "NaN", " 1" with inner junk —
 * and for values that overflow to ±Infinity ("1e999"). Surrounding whitespace is ignored.
 */
export function parseDecimal(s: string | null | undefined): number | null {
  const t = (s ?? '').trim();
  if (!DECIMAL.test(t)) return null;
  const x = Number(t);
  return Number.isFinite(x) ? x : null;
}

/** "1e-3, 3e-3" → [0.001, 0.003]; null when any item is not a plain decimal number (parseDecimal). */
export function parseList(s: string): number[] | null {
  const parts = (s ?? '')
    .split(/[,，、\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length || parts.length > 64) return null;
  const xs = parts.map(parseDecimal);
  return xs.every((x): x is number => x != null) ? xs : null;
}

/** An integer in [lo, hi] written as a plain decimal ("4", "1e3"); null otherwise. */
export function checkInt(s: string, lo: number, hi: number): number | null {
  const x = parseDecimal(s);
  return x != null && Number.isInteger(x) && x >= lo && x <= hi ? x : null;
}
