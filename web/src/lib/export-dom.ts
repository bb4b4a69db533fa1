// export-dom.ts — the drawing side of a figure's downloads: a standalone SVG of what is on screen,
// a PNG rasterised from it, and the download itself. Browser-only (DOM, canvas).
//
// composeSvg(figure, provenance): every chart <svg> inside the figure (not those in the share
// panel, the run controls, the data table or a closed <details>) is cloned at its on-screen
// position with its computed styles inlined (colours from the theme's custom properties, dash
// patterns, fonts, CSS transforms such as Figure 2's lifted layers), and the figure's visible
// labels (title, panel headings, legend entries, the readout) are written as <text>. The result
// has the figure's background, a one-line provenance footer and the provenance JSON in <metadata>.
// Leaves out: the caption prose and the controls (they are not part of the picture).
import { collapseGaps, pngInsertChunks, provenanceChunks, provenanceLine, xmlEscape, type Provenance } from './export';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Computed properties copied onto every cloned SVG element, with the value that need not be written. */
const PROPS: [string, string | null][] = [
  ['fill', 'rgb(0, 0, 0)'],
  ['fill-opacity', '1'],
  ['stroke', 'none'],
  ['stroke-width', '1px'],
  ['stroke-dasharray', 'none'],
  ['stroke-opacity', '1'],
  ['stroke-linecap', 'butt'],
  ['stroke-linejoin', 'miter'],
  ['opacity', '1'],
  ['font-family', null],
  ['font-size', null],
  ['font-weight', '400'],
  ['font-style', 'normal'],
  ['text-anchor', 'start'],
  ['dominant-baseline', 'auto'],
  ['paint-order', 'normal'],
];

/** Containers whose content is not part of the picture. */
const SKIP = '.share-panel, .share-toggle, .run, .table-wrap, .controls, details:not([open]), .table-view, [aria-hidden="true"].placeholder';
/** Where SVGs are typesetting (KaTeX's √ and brackets), not charts. */
const NOT_CHARTS = 'figcaption, .readout, .katex';

function visible(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  const s = getComputedStyle(el);
  return s.display !== 'none' && s.visibility !== 'hidden';
}

/** Clone `src` with computed styles inlined; invisible elements and hit areas are dropped. */
function cloneStyled(src: Element): Element | null {
  const s = getComputedStyle(src);
  if (s.display === 'none' || s.visibility === 'hidden') return null;
  if (src.classList.contains('hit')) return null;
  const dst = src.cloneNode(false) as Element;
  for (const a of ['class', 'style', 'tabindex', 'role', 'aria-label', 'aria-hidden', 'data-name', 'data-index']) dst.removeAttribute(a);
  if (src.tagName.toLowerCase() !== 'svg' || src.parentElement?.closest('svg')) {
    const css: string[] = [];
    for (const [p, skip] of PROPS) {
      const v = s.getPropertyValue(p);
      if (v && v !== skip) css.push(`${p}:${v.replace(/"/g, "'")}`);
    }
    if (css.length) dst.setAttribute('style', css.join(';'));
    const tf = s.transform;
    if (tf && tf !== 'none' && !(src instanceof SVGSVGElement)) dst.setAttribute('transform', tf.replace(/,\s*/g, ' ').replace(/px/g, ''));
  }
  for (const child of Array.from(src.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) dst.appendChild(child.cloneNode());
    else if (child.nodeType === Node.ELEMENT_NODE) {
      const c = cloneStyled(child as Element);
      if (c) dst.appendChild(c);
    }
  }
  return dst;
}

let measureCtx: CanvasRenderingContext2D | null = null;
/** Greedy line breaking of `text` into lines no wider than `width` in `font` (CJK breaks anywhere). */
function wrap(text: string, font: string, width: number): string[] {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  const ctx = measureCtx;
  if (!ctx) return [text];
  ctx.font = font;
  const tokens = text.match(/[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*|\s+/g) ?? [text];
  const lines: string[] = [];
  let line = '';
  for (const tk of tokens) {
    if (line && ctx.measureText(line + tk).width > width + 1) {
      lines.push(line.trimEnd());
      line = tk.trimStart();
    } else line += tk;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/** Visible text of an element: KaTeX's MathML copy and hidden helpers removed. */
function textOf(el: Element): string {
  const c = el.cloneNode(true) as Element;
  c.querySelectorAll('.katex-mathml, .visually-hidden, [aria-hidden="true"]:not(.katex-html)').forEach((n) => n.remove());
  c.querySelectorAll('.fig-label, .chip').forEach((n) => n.append(' '));
  return (c.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const LABELS = '.fig-title, h5, .legend li > span, .readout, .chip, figcaption .title, .step-label, .scale-label';

export interface Composed {
  svg: string;
  width: number;
  height: number;
  background: string;
}

/**
 * A standalone SVG of figure `fig` as drawn now, with `prov` in its metadata and footer. The
 * picture is cropped to what it contains (charts and labels), with a margin.
 */
export function composeSvg(fig: HTMLElement, prov: Provenance): Composed {
  // the share panel is open while exporting: take it out of the layout for the measurement
  fig.classList.add('lnx-exporting');
  try {
    return compose(fig, prov);
  } finally {
    fig.classList.remove('lnx-exporting');
  }
}

function compose(fig: HTMLElement, prov: Provenance): Composed {
  const box = fig.getBoundingClientRect();
  const fs = getComputedStyle(fig);
  let background = fs.backgroundColor;
  if (!background || background === 'rgba(0, 0, 0, 0)' || background === 'transparent')
    background = getComputedStyle(document.documentElement).backgroundColor || '#ffffff';
  const fg = getComputedStyle(document.body).color || '#000';
  // each part of the picture with its vertical extent (figure coordinates), written once the empty
  // bands between parts are known (collapseGaps): `at(dy)` is its markup moved up by dy
  const parts: { top: number; bottom: number; at: (dy: number) => string }[] = [];
  const skip = (el: Element) => !!el.closest(SKIP) || !visible(el);
  // horizontal extent of what is drawn, in figure coordinates
  let x0 = Infinity;
  let x1 = -Infinity;
  const grow = (r: DOMRect) => {
    x0 = Math.min(x0, r.left - box.left);
    x1 = Math.max(x1, r.right - box.left);
  };

  // chart SVGs, outermost only
  for (const svg of Array.from(fig.querySelectorAll('svg'))) {
    if (svg.parentElement?.closest('svg') || svg.closest(NOT_CHARTS) || skip(svg)) continue;
    const r = svg.getBoundingClientRect();
    const clone = cloneStyled(svg) as SVGSVGElement | null;
    if (!clone) continue;
    grow(r);
    clone.setAttribute('x', (r.left - box.left).toFixed(1));
    clone.setAttribute('width', r.width.toFixed(1));
    clone.setAttribute('height', r.height.toFixed(1));
    clone.setAttribute('overflow', 'visible');
    const ss = getComputedStyle(svg);
    clone.setAttribute('style', `font-family:${ss.fontFamily.replace(/"/g, "'")};font-size:${ss.fontSize}`);
    const top = r.top - box.top;
    parts.push({
      top,
      bottom: r.bottom - box.top,
      at: (dy) => (clone.setAttribute('y', (top - dy).toFixed(1)), new XMLSerializer().serializeToString(clone)),
    });
  }

  // labels written as text, wrapped to their on-screen width
  for (const el of Array.from(fig.querySelectorAll(LABELS))) {
    if (skip(el) || el.closest('svg')) continue;
    if (el.matches('.chip') && el.closest('.readout')) continue; // part of the readout's text
    const text = textOf(el);
    if (!text) continue;
    const r = el.getBoundingClientRect();
    grow(r);
    const s = getComputedStyle(el);
    const size = parseFloat(s.fontSize) || 12;
    const lh = parseFloat(s.lineHeight) || size * 1.3;
    const font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const lines = wrap(text, font, Math.max(40, r.width - (parseFloat(s.paddingLeft) || 0) - (parseFloat(s.paddingRight) || 0)));
    const x = r.left - box.left + (parseFloat(s.paddingLeft) || 0);
    const y = r.top - box.top + (parseFloat(s.paddingTop) || 0) + (lh - size) / 2 + size * 0.82;
    const style = `font-family:${xmlEscape(s.fontFamily.replace(/"/g, "'"))};font-size:${s.fontSize};font-weight:${s.fontWeight};fill:${s.color}`;
    // a chip in the text (Figure 1's readout: which rows a step moves through) keeps its colour, as
    // bold text in the chip's background colour: once, where its words first appear
    const chips = Array.from(el.querySelectorAll('.chip'))
      .filter(visible)
      .map((c) => ({ text: xmlEscape(textOf(c)), fill: getComputedStyle(c).backgroundColor, placed: false }))
      .filter((c) => c.text);
    const markup = lines.map((line) => {
      let out = xmlEscape(line);
      for (const c of chips) {
        const at = c.placed ? -1 : out.indexOf(c.text);
        if (at < 0) continue;
        out = `${out.slice(0, at)}<tspan style="fill:${c.fill};font-weight:700">${c.text}</tspan>${out.slice(at + c.text.length)}`;
        c.placed = true;
      }
      return out;
    });
    parts.push({
      top: r.top - box.top,
      bottom: r.bottom - box.top,
      at: (dy) => markup.map((line, i) => `<text x="${x.toFixed(1)}" y="${(y + i * lh - dy).toFixed(1)}" style="${style}">${line}</text>`).join(''),
    });
  }

  // Bands of the figure that hold nothing drawn (the controls' row, say) shrink to a margin.
  const shifts = collapseGaps(parts.map((p) => [p.top, p.bottom]));
  const moved = parts.map((p, i) => ({ top: p.top - shifts[i], bottom: p.bottom - shifts[i], markup: p.at(shifts[i]) }));
  const M = 12;
  const footH = 22;
  let y0 = Math.min(...moved.map((p) => p.top));
  let y1 = Math.max(...moved.map((p) => p.bottom));
  if (!Number.isFinite(x0) || !Number.isFinite(y0)) [x0, y0, x1, y1] = [0, 0, box.width, box.height];
  const vx = Math.floor(x0 - M);
  const vy = Math.floor(y0 - M);
  const width = Math.ceil(x1 + M) - vx;
  const height = Math.ceil(y1 + M) - vy + footH;
  const meta = xmlEscape(JSON.stringify(prov));
  const svg =
    `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="${vx} ${vy} ${width} ${height}">` +
    `<title>${xmlEscape(prov.title)}</title>` +
    `<metadata id="lnx-provenance" data-format="application/json">${meta}</metadata>` +
    `<rect x="${vx}" y="${vy}" width="${width}" height="${height}" fill="${background}"/>` +
    moved.map((p) => p.markup).join('') +
    `<text x="${vx + 8}" y="${vy + height - 7}" style="font-family:system-ui,sans-serif;font-size:10px;fill:${fg};opacity:0.7">${xmlEscape(provenanceLine(prov))}</text>` +
    `</svg>`;
  return { svg, width, height, background };
}

/** Rasterise a composed SVG at `scale`× and add the provenance text chunks. */
export async function svgToPng(c: Composed, prov: Provenance, scale = 2): Promise<Uint8Array> {
  const url = URL.createObjectURL(new Blob([c.svg], { type: 'image/svg+xml' }));
  try {
    const img = await loadImage(url);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(c.width * scale);
    canvas.height = Math.round(c.height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.fillStyle = c.background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((res) => canvas.toBlob(res, 'image/png'));
    if (!blob) throw new Error('the browser could not encode the PNG');
    return pngInsertChunks(new Uint8Array(await blob.arrayBuffer()), provenanceChunks(prov));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** How long a picture may take to load before the export gives up with a message. */
const LOAD_LIMIT_MS = 20_000;

/**
 * The image at `url`, once loaded. Waits for the load event rather than `img.decode()`: Chromium's
 * decode() can reject an SVG that loads and draws fine (an EncodingError under memory pressure), and
 * drawImage decodes by itself. A load that neither succeeds nor fails within LOAD_LIMIT_MS is an
 * error, so the Share panel says so instead of staying on "Preparing…".
 */
function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const timer = setTimeout(() => reject(new Error('the browser did not draw the picture in time')), LOAD_LIMIT_MS);
    img.onload = () => {
      clearTimeout(timer);
      resolve(img);
    };
    img.onerror = () => {
      clearTimeout(timer);
      reject(new Error('the browser could not draw the picture'));
    };
    img.src = url;
  });
}

/** Save `data` as file `name`. */
export function download(data: string | Uint8Array, name: string, type: string): void {
  const blob = new Blob([data as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
