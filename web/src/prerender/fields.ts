// prerender/fields.ts — the page the build writes holds no form field that a browser fills in for
// its reader (text, number and other typed inputs, selects, text areas). Chromium's form filling
// looks at every such field once the page has loaded, and to tell whether one is visible it lays
// out the section it is in, content-visibility: auto or not (app.css skips the sections off
// screen): three sections with run settings were laid out at load, in the task after the first
// paint (bench/mainthread_bench.mjs). Nothing a reader sees is lost: a text field of the copy sits
// in a closed <details> (a figure's run settings) or under a control that only a script works
// (hidden without one, app.css), and the live figure brings its fields (page/boot.ts). A select
// that shows a choice (Figure B's placement) is written as its chosen option, boxed like a
// select (.select-static). Checkboxes, radios and file inputs stay: they are not filled in.
// Pure: HTML in (Svelte's server renderer's), HTML out.

/** The input types a browser may fill in (an input without a type is a text field). */
const FILLABLE = new Set(['text', 'number', 'email', 'search', 'tel', 'url', 'password', 'date', 'month', 'week', 'time', 'datetime-local']);

const typeOf = (attrs: string) => (/\stype="([^"]*)"/.exec(attrs)?.[1] ?? 'text').toLowerCase();

export function withoutFields(html: string): string {
  return html
    .replace(/<input\b([^>]*)>/g, (m, attrs: string) => (FILLABLE.has(typeOf(attrs)) ? '' : m))
    .replace(/<textarea\b[^>]*>[\s\S]*?<\/textarea>/g, '')
    .replace(/<select\b[^>]*>([\s\S]*?)<\/select>/g, (_, body: string) => {
      const chosen = /<option\b[^>]*\sselected(?:=""|\b)[^>]*>([\s\S]*?)<\/option>/.exec(body) ?? /<option\b[^>]*>([\s\S]*?)<\/option>/.exec(body);
      return `<span class="select-static">${chosen?.[1] ?? ''}</span>`;
    });
}
