// inline.ts — the article's inline mini-language (content/types.ts) → safe HTML. Pure function.
//
//   $…$              inline KaTeX (tex.ts; \role{r}{x} colours x); `$$…$$` renders display-style
//   **bold**  *italic*  `code`  [text](https://…)   (links: https only, else the text alone)
//   {{key}}          a bound number → <span class="bound" data-key="key">value</span>;
//                    one a live run changed (opts.changed: figure captions and readouts only, never
//                    the article) → class "bound live", followed by the reference's value in
//                    visible text (<span class="bound-ref">, e.g. " (article: 5)");
//                    unknown key → <span class="bound missing">[?key]</span> and onUnknownKey(key)
//   {{#fig7}}        a reference to a figure → <a class="figref" href="#fig7">Figure C</a>, its label
//                    (opts.figureLabel: the number follows page order, registry.ts figureNumber);
//                    unknown figure → <span class="bound missing">[?#fig7]</span> and onUnknownKey
//   \$ \* \` \[ \{ \\   a literal character
//
// Everything that is not markup is HTML-escaped; no raw HTML passes through. Inside $…$, {{key}}
// of a *known* key is replaced by its value before KaTeX sees it (digits/dash only, as \text{}).
import { escapeHtml, renderTex } from './tex';

export interface InlineOptions {
  /** key → display string (from prose-numbers.ts) */
  bindings?: Record<string, string>;
  /** called once per unknown {{key}} occurrence */
  onUnknownKey?: (key: string) => void;
  /** keys whose value comes from a live run and differs from the article's: key → the visible
   *  note that follows the value and gives the reference's (" (article: 0.54)") */
  changed?: Record<string, string>;
  /** a figure id → the label the page shows for it ("Figure C"), undefined if there is none */
  figureLabel?: (id: string) => string | undefined;
}

// Sticky (matched at lastIndex): the parser tries them at its position without slicing the rest of
// the string off at every character (that made a long paragraph quadratic: the article re-renders
// whenever a live run changes a bound number).
const KEY = /\{\{\s*([A-Za-z][\w.-]*)\s*\}\}/y;
const FIGREF = /\{\{#(fig\d+)\}\}/y;
const LINK = /\[([^\]\n]*)\]\(([^()\s]*)\)/y;
const ESCAPABLE = new Set(['$', '*', '`', '[', ']', '{', '}', '\\', '_']);
/** Characters that may start markup; a run of anything else is copied (escaped) in one piece. */
const SPECIAL = /[\\$*`[{]/g;

function matchAt(re: RegExp, s: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(s);
}

/** Render one inline string to HTML. */
export function renderInline(text: string, opts: InlineOptions = {}): string {
  return parse(text ?? '', opts, 0);
}

function bound(key: string, opts: InlineOptions): string {
  const v = opts.bindings?.[key];
  if (v === undefined) {
    opts.onUnknownKey?.(key);
    return `<span class="bound missing" data-key="${escapeHtml(key)}">[?${escapeHtml(key)}]</span>`;
  }
  const note = opts.changed?.[key];
  if (note != null)
    return `<span class="bound live" data-key="${escapeHtml(key)}">${escapeHtml(v)}</span><span class="bound-ref" data-ref="${escapeHtml(key)}">${escapeHtml(note)}</span>`;
  return `<span class="bound" data-key="${escapeHtml(key)}">${escapeHtml(v)}</span>`;
}

function figureRef(id: string, opts: InlineOptions): string {
  const label = opts.figureLabel?.(id);
  if (label === undefined) {
    opts.onUnknownKey?.(`#${id}`);
    return `<span class="bound missing" data-key="#${escapeHtml(id)}">[?#${escapeHtml(id)}]</span>`;
  }
  return `<a class="figref" href="#${escapeHtml(id)}">${escapeHtml(label)}</a>`;
}

/** Substitute known {{key}} inside TeX; values become \text{…} of safe characters only. */
function texBindings(tex: string, opts: InlineOptions): string {
  return tex.replace(/\{\{\s*([A-Za-z][\w.-]*)\s*\}\}/g, (m, key: string) => {
    const v = opts.bindings?.[key];
    if (v === undefined) {
      opts.onUnknownKey?.(key);
      return `\\text{[?${key.replace(/[^\w.-]/g, '')}]}`;
    }
    return `\\text{${v.replace(/[^0-9.,、\-−—–×⁰¹²³⁴⁵⁶⁷⁸⁹⁻ ]/g, '')}}`;
  });
}

/** Index of the closing single `*` for an italic starting at `from`, or -1. */
function closingStar(s: string, from: number): number {
  for (let j = from; j < s.length; j++) {
    if (s[j] === '\\') {
      j++;
      continue;
    }
    if (s[j] === '*' && s[j + 1] !== '*' && j > from && !/\s/.test(s[j - 1])) return j;
    if (s[j] === '*' && s[j + 1] === '*') j++; // skip a bold marker inside
  }
  return -1;
}

/** Index of the closing `$` (or `$$`) after `from`, skipping \$; -1 if none. */
function closingDollar(s: string, from: number, double: boolean): number {
  for (let j = from; j < s.length; j++) {
    if (s[j] === '\\') {
      j++;
      continue;
    }
    if (s[j] === '$' && (!double || s[j + 1] === '$')) return j;
  }
  return -1;
}

function parse(s: string, opts: InlineOptions, depth: number): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && ESCAPABLE.has(s[i + 1])) {
      out += escapeHtml(s[i + 1]);
      i += 2;
      continue;
    }
    if (c === '$') {
      const double = s[i + 1] === '$';
      const start = i + (double ? 2 : 1);
      const j = closingDollar(s, start, double);
      if (j > start) {
        out += renderTex(texBindings(s.slice(start, j), opts), double);
        i = j + (double ? 2 : 1);
        continue;
      }
    }
    if (depth < 8 && s.startsWith('**', i)) {
      const j = s.indexOf('**', i + 2);
      if (j > i + 2) {
        out += `<strong>${parse(s.slice(i + 2, j), opts, depth + 1)}</strong>`;
        i = j + 2;
        continue;
      }
    }
    if (depth < 8 && c === '*' && s[i + 1] && !/\s/.test(s[i + 1])) {
      const j = closingStar(s, i + 1);
      if (j > i + 1) {
        out += `<em>${parse(s.slice(i + 1, j), opts, depth + 1)}</em>`;
        i = j + 1;
        continue;
      }
    }
    if (c === '`') {
      const j = s.indexOf('`', i + 1);
      if (j > i + 1) {
        out += `<code>${escapeHtml(s.slice(i + 1, j))}</code>`;
        i = j + 1;
        continue;
      }
    }
    if (c === '[') {
      const m = matchAt(LINK, s, i);
      if (m) {
        const label = depth < 8 ? parse(m[1], opts, depth + 1) : escapeHtml(m[1]);
        out += isSafeUrl(m[2]) ? `<a href="${escapeHtml(m[2])}" rel="noopener noreferrer" target="_blank">${label}</a>` : label;
        i += m[0].length;
        continue;
      }
    }
    if (c === '{' && s[i + 1] === '{') {
      const m = matchAt(KEY, s, i);
      if (m) {
        out += bound(m[1], opts);
        i += m[0].length;
        continue;
      }
      const r = matchAt(FIGREF, s, i);
      if (r) {
        out += figureRef(r[1], opts);
        i += r[0].length;
        continue;
      }
    }
    // no markup here: copy up to the next character that may start some
    SPECIAL.lastIndex = i + 1;
    const next = SPECIAL.exec(s)?.index ?? s.length;
    out += escapeHtml(s.slice(i, next));
    i = next;
  }
  return out;
}

/** Only absolute https URLs with a host; no credentials. */
export function isSafeUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && !!u.hostname && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** A display-math block: known {{key}} substituted, rendered display-style. */
export function renderMath(tex: string, opts: InlineOptions = {}): string {
  return renderTex(texBindings(tex, opts), true);
}
