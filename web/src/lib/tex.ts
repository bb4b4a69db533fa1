// tex.ts — KaTeX with the article's one custom macro, rendered to an HTML string.
//
// \role{r}{x} colours x by its role (r ∈ in|op|norm|param|loss) with the shared palette. It expands to
// \htmlClass{role-r}{x}; KaTeX only emits \htmlClass when `trust` allows it, and our trust function
// allows exactly the five role classes and nothing else (no \href, \url, \includegraphics, \htmlStyle,
// \htmlData, \htmlId). Colours come from CSS (.role-in { color: var(--role-in) } in app.css), so
// dark mode switches them. Invalid TeX renders as an escaped, visibly marked span instead of throwing.
//
// KaTeX is loaded on demand (loadTex): a chunk of its own, evaluated in a task of its own. Its
// tables made a third of the live page's first task (page/boot.ts), and the page's prose never needs
// it in the browser (the build wrote the prose's formulas, scripts/prerender.mjs): only a live figure
// does, whose island waits for it. Until it has loaded, renderTex gives the TeX as escaped text,
// marked, and remembers nothing, but for the formulas seedTex read from the build's HTML.
import type Katex from 'katex';
import { ROLES } from './palette';

let katex: typeof Katex | null = null;
let loading: Promise<void> | null = null;

/** Load KaTeX (once); resolves when renderTex renders. The build, the tests and the live page
 *  await it before anything that renders TeX. */
export function loadTex(): Promise<void> {
  return (loading ??= import('katex').then((m) => void (katex = m.default)));
}

const ROLE_CLASS = new RegExp(`^role-(${ROLES.join('|')})$`);

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// KaTeX's output depends only on (tex, display): remembered, because the article's prose is
// rendered again whenever a live run changes one of its bound numbers, and KaTeX was most of that
// main-thread time (taken from the engine's threads on a 2-core machine). Bounded: cleared when full.
const memo = new Map<string, string>();
const MEMO_MAX = 4000;
const remember = (key: string, html: string) => {
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, html);
};

/** Render TeX to HTML (KaTeX HTML + MathML). Never throws. */
export function renderTex(tex: string, display = false): string {
  const key = (display ? 'D' : 'I') + tex;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  if (!katex) return `<span class="tex-pending">${escapeHtml(tex)}</span>`;
  const html = renderKatex(tex, display);
  remember(key, html);
  return html;
}

function renderKatex(tex: string, display: boolean): string {
  try {
    return katex!.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      output: 'htmlAndMathml',
      strict: 'ignore',
      maxExpand: 200,
      macros: { '\\role': '\\htmlClass{role-#1}{#2}' }, // fresh object: KaTeX mutates it
      trust: (ctx) => ctx.command === '\\htmlClass' && ROLE_CLASS.test(ctx.class),
    });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return `<span class="tex-error" title="${escapeHtml(msg)}">${escapeHtml(tex)}</span>`;
  }
}

/**
 * Remember the formulas the build wrote inside `root` (the HTML KaTeX made of them there, keyed by
 * their TeX, which KaTeX keeps in the MathML's annotation), so that a figure made live over the
 * build's HTML renders them without running KaTeX again (page/boot.ts, before an island mounts):
 * Figure 1's hydration spent a quarter of its main-thread task (24 of 96 ms, desktop speed) in
 * KaTeX, rendering the formulas its HTML already held. The same TeX in the same mode gives the same
 * formula, so what is read back is what renderTex would give (as the browser serialises it).
 */
export function seedTex(root: ParentNode): void {
  for (const a of root.querySelectorAll('.katex > .katex-mathml annotation[encoding="application/x-tex"]')) {
    const k = a.closest('.katex');
    const tex = a.textContent;
    if (!k || tex == null) continue;
    const shown = k.parentElement?.classList.contains('katex-display') ? k.parentElement : null;
    const key = (shown ? 'D' : 'I') + tex;
    if (!memo.has(key)) remember(key, (shown ?? k).outerHTML);
  }
}
