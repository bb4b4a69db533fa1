// islands.ts — the live page as islands over the article the build wrote (scripts/prerender.mjs):
// the prose stays the static copy, and each interactive part ([data-island], a figure, the
// toolbar, the citation) is made live on its own, in a task of its own, when it is wanted:
//   - it nears the viewport (an IntersectionObserver with a margin of about one screen);
//   - the reader reaches for it: a pointer over it or pressing it, a key focusing it, a click;
//   - a link asks for it (its #fragment names it or something inside it; boot.ts asks for the
//     figures whose settings the link carries).
// Islands wake one at a time with a yield to the browser between them (lib/slices.ts), so a tap or
// a key is answered between two islands, never after all of them; the ones the reader reached for
// go first, then the nearest to the viewport. An island is made ready off the main thread first
// (`prepare`: its module, its data) and then made live in one synchronous step (`mount`).
// A control of the static copy looks like the live one and answers the first time: a click on it
// is held, the island is made live at once, and the click is given to the same control of the live
// island (matched by controlKey; not given when the live island's controls differ); focus moves to
// the live control the same way. A press (pointerdown) holds the island back until its click, so
// that the element under the finger is not replaced mid-tap.
// Leaves out: what an island is and how it mounts (page/boot.ts), the data it needs.
import { fragmentTarget } from './fragment';
import { yieldToBrowser } from './slices';

/** Elements of a static island that the reader can operate (and that the live island has too). */
export const CONTROL = 'button, input, select, textarea, summary, a[href], [role="slider"], [tabindex]';

/** The parts of a control that say which control it is, whatever its state: not its text (a
 *  "Copy" button reads "Copied") nor its classes (a current step is marked by one). */
export interface ControlSig {
  tag: string;
  type?: string | null;
  name?: string | null;
  /** a radio's or checkbox's value; not a text field's (the reader's text) */
  value?: string | null;
  role?: string | null;
  id?: string | null;
}

export const signature = (c: ControlSig): string => [c.tag.toLowerCase(), c.type ?? '', c.name ?? '', c.value ?? '', c.role ?? '', c.id ?? ''].join('|');

/** A control of an island: its signature and its place among the island's controls that share it. */
export interface ControlKey {
  sig: string;
  index: number;
  /** how many of the island's controls share the signature (the live island must have as many) */
  of: number;
}

/** The key of `sigs[i]` among the island's controls `sigs` (signatures, in document order). Pure. */
export function keyOf(sigs: readonly string[], i: number): ControlKey {
  const sig = sigs[i];
  const same = sigs.map((s, j) => [s, j] as const).filter(([s]) => s === sig);
  return { sig, index: same.findIndex(([, j]) => j === i), of: same.length };
}

/** The index in `sigs` (a live island's controls) of the control `key` names, or -1 when the live
 *  island's controls of that kind differ in number (then a held click is not given to any). Pure. */
export function findKey(sigs: readonly string[], key: ControlKey): number {
  const same = sigs.map((s, j) => [s, j] as const).filter(([s]) => s === key.sig);
  return same.length === key.of && key.index >= 0 ? (same[key.index]?.[1] ?? -1) : -1;
}

const sigOf = (el: Element): string => {
  const type = el.getAttribute('type');
  const checkable = el.tagName === 'INPUT' && (type === 'radio' || type === 'checkbox');
  return signature({
    tag: el.tagName,
    type,
    name: el.getAttribute('name'),
    value: checkable ? el.getAttribute('value') : null,
    role: el.getAttribute('role'),
    id: el.id || null,
  });
};
const controlsOf = (island: Element) => [...island.querySelectorAll(CONTROL)];

/** The key of the control `el` is in (or is), inside `island`; null when it is in none. */
export function controlKey(island: Element, el: Element | null): ControlKey | null {
  const c = el?.closest(CONTROL);
  if (!c || !island.contains(c)) return null;
  const list = controlsOf(island);
  return keyOf(list.map(sigOf), list.indexOf(c));
}

/** The control of `island` that `key` names, or null. */
export function findControl(island: Element, key: ControlKey): HTMLElement | null {
  const list = controlsOf(island);
  const i = findKey(list.map(sigOf), key);
  return i >= 0 ? (list[i] as HTMLElement) : null;
}

export type IslandState = 'static' | 'live' | 'failed';

export interface IslandHooks {
  /** what the island needs before it can mount (its module, its data); settles when it may mount */
  prepare(el: HTMLElement): Promise<void>;
  /** make the island live in place, at once (one synchronous step: one task) */
  mount(el: HTMLElement): void;
  /** it went live (or failed: `error`) */
  onState?(el: HTMLElement, state: IslandState, error?: unknown): void;
}

export interface IslandsOptions {
  /** how far beyond the viewport an island counts as near (IntersectionObserver rootMargin) */
  margin?: string;
  /** the element the listeners go on (document) */
  root?: Document;
}

/** How urgently an island is wanted: the reader or a link asked for it, or it is near the viewport. */
type Want = 'asked' | 'near';

export class Islands {
  private readonly els: HTMLElement[];
  private readonly state = new Map<HTMLElement, IslandState>();
  private readonly prepared = new Map<HTMLElement, Promise<void>>();
  private readonly ready = new Set<HTMLElement>();
  private readonly wanted = new Map<HTMLElement, { want: Want; top: number; seq: number }>();
  private readonly waiters = new Map<HTMLElement, (() => void)[]>();
  /** an island pressed and not yet clicked: its mount waits for the click (or the press's end) */
  private pressed: HTMLElement | null = null;
  private pointerDown = false;
  private seq = 0;
  private pumping = false;
  /** wakes the pump when an island becomes ready or wanted */
  private kick: (() => void) | null = null;
  private io: IntersectionObserver | null = null;
  /** the element the observer watches for each island */
  private readonly watched = new Map<Element, HTMLElement>();
  private readonly off: (() => void)[] = [];

  constructor(
    els: Iterable<HTMLElement>,
    private readonly hooks: IslandHooks,
    private readonly opts: IslandsOptions = {},
  ) {
    this.els = [...els];
    for (const el of this.els) this.state.set(el, 'static');
  }

  /** Watch the viewport, the reader's input and the #fragment. */
  start(): this {
    const doc = this.opts.root ?? document;
    if (typeof IntersectionObserver !== 'undefined') {
      this.io = new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            const el = this.watched.get(e.target);
            if (el && e.isIntersecting) this.want(el, 'near', e.boundingClientRect.top);
          }
        },
        { rootMargin: this.opts.margin ?? '100% 0px' },
      );
      // an island's wrapper takes no box (display: contents): its first part is watched for it
      for (const el of this.els) {
        const box = el.firstElementChild ?? el;
        this.watched.set(box, el);
        this.io.observe(box);
      }
    } else {
      for (const el of this.els) this.want(el, 'near');
    }
    const on = <K extends keyof DocumentEventMap>(type: K, f: (ev: DocumentEventMap[K]) => void) => {
      doc.addEventListener(type, f, true);
      this.off.push(() => doc.removeEventListener(type, f, true));
    };
    on('click', (ev) => this.onClick(ev));
    on('pointerdown', (ev) => {
      this.pointerDown = true;
      const island = this.islandOf(ev.target);
      if (!island) return;
      this.pressed = island;
      void this.prepare(island);
    });
    const released = () => {
      this.pointerDown = false;
      const p = this.pressed;
      // no click came of the press (a scroll, a drag): wake it as asked, in its turn
      if (p) setTimeout(() => this.pressed === p && ((this.pressed = null), this.want(p, 'asked')), 400);
    };
    on('pointerup', released);
    on('pointercancel', released);
    on('pointerover', (ev) => {
      if (ev.pointerType !== 'mouse') return;
      const island = this.islandOf(ev.target);
      if (island) this.want(island, 'asked');
    });
    on('focusin', (ev) => {
      // a press focuses what it presses: its click makes the island live
      if (this.pointerDown) return;
      const island = this.islandOf(ev.target);
      if (island) this.wakeNow(island, 'focus', ev.target as Element);
    });
    const hash = () => this.onHash();
    addEventListener('hashchange', hash);
    this.off.push(() => removeEventListener('hashchange', hash));
    this.onHash();
    return this;
  }

  stop() {
    this.io?.disconnect();
    for (const f of this.off.splice(0)) f();
  }

  stateOf(el: HTMLElement): IslandState | undefined {
    return this.state.get(el);
  }

  /** Ask for an island (a link named it): it wakes before those merely near the viewport.
   *  Resolves once it is live (or failed). */
  ask(el: HTMLElement): Promise<void> {
    const done = this.whenLive(el);
    this.want(el, 'asked');
    return done;
  }

  /** Resolves once `el` is live or failed (at once when it already is). */
  whenLive(el: HTMLElement): Promise<void> {
    if (this.state.get(el) !== 'static') return Promise.resolve();
    return new Promise((r) => this.waiters.set(el, [...(this.waiters.get(el) ?? []), r]));
  }

  /** The static island `target` is inside, or null. */
  private islandOf(target: EventTarget | null): HTMLElement | null {
    const el = target instanceof Element ? (target.closest('[data-island]') as HTMLElement | null) : null;
    return el && this.state.get(el) === 'static' ? el : null;
  }

  private onHash() {
    const target = fragmentTarget();
    const island = target ? this.islandOf(target) : null;
    if (island) this.want(island, 'asked');
  }

  private onClick(ev: MouseEvent) {
    const island = this.islandOf(ev.target);
    if (island === this.pressed) this.pressed = null;
    if (!island) return;
    const key = controlKey(island, ev.target as Element);
    // a link (a figure reference in a caption) works as it is; the island wakes in its turn
    if (!key || (ev.target as Element).closest('a[href]')) return void this.want(island, 'asked');
    ev.preventDefault();
    ev.stopImmediatePropagation();
    this.wakeNow(island, 'click', key);
  }

  /** Make `island` live now if it is ready (else as soon as it is), then give it what the reader
   *  did to its static copy: the click (by its control's key) or the focus. */
  private wakeNow(island: HTMLElement, what: 'click' | 'focus', by: ControlKey | Element) {
    const key = by instanceof Element ? controlKey(island, by) : by;
    const give = () => {
      if (this.state.get(island) !== 'live' || !key) return;
      const c = findControl(island, key);
      if (!c) return;
      if (what === 'click') {
        c.focus({ preventScroll: true });
        c.click();
      } else c.focus({ preventScroll: true });
    };
    if (this.ready.has(island)) {
      this.mountOne(island);
      give();
      return;
    }
    void this.whenLive(island).then(give);
    this.want(island, 'asked');
  }

  private prepare(el: HTMLElement): Promise<void> {
    let p = this.prepared.get(el);
    if (!p) {
      p = this.hooks.prepare(el).then(
        () => void this.ready.add(el),
        (e) => this.settle(el, 'failed', e),
      );
      p.finally(() => this.kick?.());
      this.prepared.set(el, p);
    }
    return p;
  }

  private want(el: HTMLElement, want: Want, top = 0) {
    if (this.state.get(el) !== 'static') return;
    const had = this.wanted.get(el);
    if (had && (had.want === 'asked' || want === 'near')) return;
    this.wanted.set(el, { want, top, seq: this.seq++ });
    void this.prepare(el);
    this.kick?.();
    void this.pump();
  }

  /** The next island to wake: asked before near (the earliest asked first), then the near one
   *  closest to the viewport (on screen, then below it, then above). Only a prepared one. */
  private next(): HTMLElement | null {
    const h = typeof innerHeight === 'number' ? innerHeight : 800;
    const dist = (top: number) => (top >= 0 && top < h ? 0 : top >= h ? top - h : h - top + 1e6);
    let best: HTMLElement | null = null;
    let score = Infinity;
    for (const [el, w] of this.wanted) {
      if (!this.ready.has(el) || el === this.pressed) continue;
      const s = w.want === 'asked' ? w.seq - 1e12 : dist(w.top) * 1e3 + w.seq;
      if (s < score) [best, score] = [el, s];
    }
    return best;
  }

  private async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.wanted.size) {
        // a task of its own for each island: input and paint go between two of them
        await yieldToBrowser();
        const el = this.next();
        if (el) {
          this.mountOne(el);
          continue;
        }
        // none prepared yet (or the one ready is pressed): wait until one is, or another is wanted
        await new Promise<void>((r) => {
          this.kick = r;
          if (this.pressed) setTimeout(r, 100);
        });
        this.kick = null;
      }
    } finally {
      this.pumping = false;
    }
  }

  private mountOne(el: HTMLElement) {
    this.wanted.delete(el);
    if (this.state.get(el) !== 'static') return;
    const focused = el.contains(document.activeElement) ? controlKey(el, document.activeElement) : null;
    const t0 = performance.now();
    try {
      this.hooks.mount(el);
    } catch (e) {
      return this.settle(el, 'failed', e);
    }
    // what each island cost the main thread (bench/mainthread_bench.mjs reads the measures)
    performance.measure(`island ${el.dataset.island ?? ''}`, { start: t0, end: performance.now() });
    el.dataset.live = '';
    if (focused) findControl(el, focused)?.focus({ preventScroll: true });
    this.settle(el, 'live');
  }

  /** `el` is live, or failed (its static copy stays: it draws the reference; onState says why). */
  private settle(el: HTMLElement, state: 'live' | 'failed', error?: unknown) {
    if (this.state.get(el) !== 'static') return;
    this.state.set(el, state);
    this.wanted.delete(el);
    for (const [box, of] of this.watched) {
      if (of !== el) continue;
      this.io?.unobserve(box);
      this.watched.delete(box);
    }
    this.hooks.onState?.(el, state, error);
    for (const r of this.waiters.get(el) ?? []) r();
    this.waiters.delete(el);
  }
}
