// export.ts — what a figure's downloads contain: provenance, CSV, JSON, file names, and the text
// chunks that carry the provenance inside a PNG. Pure functions (no DOM); the drawing side (SVG
// composition, rasterising, the download itself) is in export-dom.ts.
//
// Provenance (every download carries it): the page and figure, the link that rebuilds the view,
// whether the numbers were precomputed or computed live, the engine (version, build flavour,
// threads), the engine config and seeds, when the numbers were computed and when they were exported.
//   CSV  → leading "# key: value" comment lines, then one header row and the data rows
//   JSON → {"provenance": {...}, "data": {...}}
//   SVG  → <metadata> with the provenance JSON and a visible one-line footer
//   PNG  → iTXt "Description" (the provenance JSON, UTF-8) and tEXt "Software" chunks
import type { EngineInfo } from '../engine/documents';

export type ExportKind = 'svg' | 'png' | 'csv' | 'json';
export type DataSource = 'precomputed' | 'live' | 'static';

export interface Provenance {
  generator: string;
  figure: string;
  title: string;
  /** the permalink of the exported view */
  url: string;
  source: DataSource;
  engine: EngineInfo | null;
  /** engine config of the drawn result (null for a figure without engine numbers) */
  config: Record<string, unknown> | null;
  /** the seeds the numbers average over */
  seeds: number[] | null;
  /** ISO date the numbers were computed (precomputed file date, or end of the live run) */
  computed: string | null;
  /** ISO date of the export */
  exported: string;
  lang: string;
  /** figure state that is not in the config (selected layer, step, statistic…) */
  view: Record<string, unknown>;
}

export interface ProvenanceInput {
  figure: string;
  title: string;
  url: string;
  source: DataSource;
  doc: { engine?: EngineInfo; config?: Record<string, unknown>; generated?: string } | null;
  /** ISO date a live run finished */
  liveAt?: string | null;
  now: Date;
  lang: string;
  view?: Record<string, unknown>;
}

/** Seeds a config averages over: a list (grid), a count (probe: seeds 0…n−1), or the one seed of a
 *  single run (`seed`: a training run, the adam-first-step experiment). */
export function seedsOf(config: Record<string, unknown> | null | undefined): number[] | null {
  const s = config?.seeds;
  if (s == null && typeof config?.seed === 'number') return [config.seed];
  if (Array.isArray(s)) return s.filter((x): x is number => typeof x === 'number');
  if (typeof s === 'number' && Number.isInteger(s) && s >= 0 && s <= 1000) return Array.from({ length: s }, (_, i) => i);
  return null;
}

export function provenance(p: ProvenanceInput): Provenance {
  const config = p.doc?.config ?? null;
  return {
    generator: 'ln-explorable',
    figure: p.figure,
    title: p.title,
    url: p.url,
    source: p.source,
    engine: p.doc?.engine ?? null,
    config,
    seeds: seedsOf(config),
    computed: p.source === 'live' ? (p.liveAt ?? null) : p.source === 'precomputed' ? (p.doc?.generated ?? null) : null,
    exported: p.now.toISOString(),
    lang: p.lang,
    view: p.view ?? {},
  };
}

/** One line for a picture's footer: "ln-explorable · fig4 · live · engine 0.1.0 wasm-st · 2026-11-29". */
export function provenanceLine(p: Provenance): string {
  const eng = p.engine ? `engine ${p.engine.version} ${p.engine.build}` : '';
  const when = (p.computed ?? p.exported).slice(0, 10);
  return [p.generator, p.figure, p.source, eng, when].filter(Boolean).join(' · ');
}

// ---- CSV ------------------------------------------------------------------------------------------
export type Cell = string | number | boolean | null | undefined;
export interface Table {
  columns: string[];
  rows: Cell[][];
}

/** One CSV field (RFC 4180 quoting). Numbers at full precision; non-finite → empty. Text that a
 * spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe. */
export function csvField(v: Cell): string {
  if (v == null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Provenance as "# key: value" lines (JSON values for objects), then the table. */
export function toCsv(t: Table, p: Provenance | null): string {
  const lines: string[] = [];
  if (p) {
    for (const [k, v] of Object.entries(p)) {
      const s = v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      lines.push(`# ${k}: ${s.replace(/[\r\n]+/g, ' ')}`);
    }
  }
  lines.push(t.columns.map(csvField).join(','));
  for (const r of t.rows) lines.push(r.map(csvField).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** The JSON download: provenance and the numbers (non-finite numbers become null). */
/** The parts of a document a download's JSON carries as they are: each key's value, null where the
 *  document or the part is absent. */
export const docParts = <D, K extends keyof D>(doc: D | null, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, doc?.[k] ?? null])) as { [P in K]: D[P] | null };

export function toJson(data: unknown, p: Provenance): string {
  return JSON.stringify({ provenance: p, data }, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n';
}

/** "ln-explorable-fig4-live-2026-11-29.csv" */
export function fileName(figure: string, source: DataSource, kind: ExportKind, when: Date | string): string {
  const d = (typeof when === 'string' ? when : when.toISOString()).slice(0, 10);
  const safe = (s: string) => s.replace(/[^\w-]+/g, '');
  return `ln-explorable-${safe(figure)}-${safe(source)}-${safe(d)}.${kind}`;
}

// ---- layout of an exported picture --------------------------------------------------------------

/**
 * How far to move each part of a picture up so that no empty horizontal band between parts is taller
 * than `maxGap`: such a band (where the page had controls, which the picture leaves out) shrinks to
 * `keep`. `spans` are the parts' [top, bottom], in any order; the answer is one shift per span, the
 * sum of what was taken out above it. Pure.
 */
export function collapseGaps(spans: [number, number][], maxGap = 40, keep = 24): number[] {
  const order = spans.map((_, i) => i).sort((a, b) => spans[a][0] - spans[b][0]);
  const shift: number[] = new Array(spans.length).fill(0);
  let removed = 0;
  let reach = -Infinity; // the lowest bottom of the parts seen so far
  for (const i of order) {
    const [top, bottom] = spans[i];
    if (Number.isFinite(reach) && top - reach > maxGap) removed += top - reach - keep;
    shift[i] = removed;
    reach = Math.max(reach, bottom);
  }
  return shift;
}

// ---- SVG text ---------------------------------------------------------------------------------------
export const xmlEscape = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

// ---- PNG text chunks -----------------------------------------------------------------------------
let CRC_TABLE: Uint32Array | null = null;
/** CRC-32 (ISO 3309 / PNG). */
export function crc32(bytes: Uint8Array): number {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const ascii = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0) & 0xff);

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  out.set(ascii(type), 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A tEXt chunk (Latin-1 keyword and text; other characters are replaced by '?'). */
export function textChunk(keyword: string, text: string): Uint8Array {
  const latin = (s: string) => Uint8Array.from(s, (ch) => (ch.charCodeAt(0) < 256 ? ch.charCodeAt(0) : 63));
  return chunk('tEXt', new Uint8Array([...latin(keyword.slice(0, 79)), 0, ...latin(text)]));
}

/** An uncompressed iTXt chunk (UTF-8 text). */
export function itxtChunk(keyword: string, text: string): Uint8Array {
  const utf8 = new TextEncoder().encode(text);
  return chunk('iTXt', new Uint8Array([...ascii(keyword.slice(0, 79)), 0, 0, 0, 0, 0, ...utf8]));
}

const PNG_SIG = [137, 80, 78, 71, 13, 10, 26, 10];

/** Insert chunks right after IHDR. Throws on a buffer that is not a PNG. */
export function pngInsertChunks(png: Uint8Array, chunks: Uint8Array[]): Uint8Array {
  if (png.length < 33 || PNG_SIG.some((b, i) => png[i] !== b)) throw new Error('not a PNG');
  const ihdrLen = new DataView(png.buffer, png.byteOffset).getUint32(8);
  const at = 8 + 12 + ihdrLen;
  const extra = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(png.length + extra);
  out.set(png.subarray(0, at), 0);
  let o = at;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  out.set(png.subarray(at), o);
  return out;
}

/** The chunks of a PNG: type, data, and whether the stored CRC matches (for tests and checks). */
export function pngChunks(png: Uint8Array): { type: string; data: Uint8Array; crcOk: boolean }[] {
  const out: { type: string; data: Uint8Array; crcOk: boolean }[] = [];
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let o = 8;
  while (o + 12 <= png.length) {
    const len = dv.getUint32(o);
    const type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    const data = png.subarray(o + 8, o + 8 + len);
    const crcOk = dv.getUint32(o + 8 + len) === crc32(png.subarray(o + 4, o + 8 + len));
    out.push({ type, data, crcOk });
    o += 12 + len;
    if (type === 'IEND') break;
  }
  return out;
}

/** The provenance text chunks for a PNG export. */
export const provenanceChunks = (p: Provenance): Uint8Array[] => [
  textChunk('Software', `ln-explorable (engine ${p.engine?.version ?? 'n/a'})`),
  itxtChunk('Description', JSON.stringify(p)),
];
