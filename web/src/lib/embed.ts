// embed.ts — the message protocol between an embedded figure (?embed=figN, in an iframe) and the
// page that hosts it. Documented in docs/sharing.md; public/embed.js is the host-side half.
//
// Embed → host (posted to window.parent with targetOrigin "*": it carries nothing private):
//   { type: 'lnx:height', v: 1, figure: 'fig1', 'fig2', …, height: <CSS px, integer>, state: 'loading'|'ready'|'error' }
//     sent when the embed's content changes height or its figure changes state, and on request.
// Host → embed (accepted only from window.parent, only in exactly these shapes; everything else is
// ignored and counted in <html data-lnx-ignored>):
//   { type: 'lnx:theme', v: 1, theme: 'light'|'dark' }   switch the theme
//   { type: 'lnx:request-height', v: 1 }                 send lnx:height now
import type { FigureId } from '../content/types';

export const PROTOCOL_VERSION = 1;
export type Theme = 'light' | 'dark';

export type HostMessage = { type: 'lnx:theme'; v: 1; theme: Theme } | { type: 'lnx:request-height'; v: 1 };
export interface HeightMessage {
  type: 'lnx:height';
  v: 1;
  figure: FigureId;
  height: number;
  state: string;
}

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype;
const keysAre = (o: Record<string, unknown>, keys: string[]) => {
  const k = Object.keys(o).sort();
  return k.length === keys.length && k.every((x, i) => x === [...keys].sort()[i]);
};

/** A message from the host in one of the documented shapes, or null. Pure. */
export function parseHostMessage(data: unknown): HostMessage | null {
  if (!isPlainObject(data) || data.v !== PROTOCOL_VERSION) return null;
  if (data.type === 'lnx:theme' && keysAre(data, ['type', 'v', 'theme']) && (data.theme === 'light' || data.theme === 'dark'))
    return { type: 'lnx:theme', v: 1, theme: data.theme };
  if (data.type === 'lnx:request-height' && keysAre(data, ['type', 'v'])) return { type: 'lnx:request-height', v: 1 };
  return null;
}

/** The height message for the host. Pure. */
export function heightMessage(figure: FigureId, height: number, state: string): HeightMessage {
  return { type: 'lnx:height', v: 1, figure, height: Math.max(0, Math.ceil(height)), state };
}

export interface EmbedHooks {
  figure: FigureId;
  /** the element whose height is the embed's height */
  root: HTMLElement;
  onTheme(theme: Theme): void;
}

/**
 * Start the embed side: report the height to the parent whenever it or the figure's data-state
 * changes, and listen for the host's messages. Returns a function that stops everything.
 * Does nothing (but returns a no-op) when the page is not in a frame.
 */
export function startEmbed({ figure, root, onTheme }: EmbedHooks): () => void {
  const parent = window.parent;
  if (!parent || parent === window) return () => {};
  const html = document.documentElement;
  const count = (name: 'lnxIgnored' | 'lnxAccepted') => (html.dataset[name] = String(Number(html.dataset[name] ?? 0) + 1));
  let last = '';
  const send = (force = false) => {
    const style = getComputedStyle(root);
    const h = root.getBoundingClientRect().height + parseFloat(style.marginTop || '0') + parseFloat(style.marginBottom || '0');
    const state = document.getElementById(figure)?.dataset.state ?? 'loading';
    const msg = heightMessage(figure, h, state);
    const key = `${msg.height}|${msg.state}`;
    if (!force && key === last) return;
    last = key;
    parent.postMessage(msg, '*');
  };
  const ro = new ResizeObserver(() => send());
  ro.observe(root);
  const mo = new MutationObserver(() => send());
  mo.observe(root, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
  const onMessage = (ev: MessageEvent) => {
    if (ev.source !== parent) return void count('lnxIgnored');
    const m = parseHostMessage(ev.data);
    if (!m) return void count('lnxIgnored');
    count('lnxAccepted');
    if (m.type === 'lnx:theme') onTheme(m.theme);
    else send(true);
  };
  window.addEventListener('message', onMessage);
  send(true);
  return () => {
    ro.disconnect();
    mo.disconnect();
    window.removeEventListener('message', onMessage);
  };
}
