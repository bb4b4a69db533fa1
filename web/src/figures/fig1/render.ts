// render.ts — Figure 1's bridge to the page's inline renderer (web/src/lib/inline.ts): captions and
// factor sentences become HTML (KaTeX, \role colours, {{key}} numbers). If the renderer throws or
// returns something other than a string, the text falls back to `plainInline` (readable, no maths),
// so a bad string never takes the figure down.

import { renderInline } from '../../lib/inline';
import { plainInline } from '../../lib/plain-inline';

export type Rendered = { html: string } | { plain: string };

export function renderText(text: string, bindings: Record<string, string> = {}): Rendered {
  try {
    const out: unknown = renderInline(text, { bindings });
    if (typeof out === 'string') return { html: out };
  } catch {
    /* fall through to plain text */
  }
  return { plain: plainInline(text) };
}
