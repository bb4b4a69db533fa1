// x-selection.svelte.ts — the one selected x value (a depth, a layer, a step) that a figure's panels
// share, and the wiring every panel repeats: a hover picks the nearest x (Chart's onpointer), ←/→ on
// a focused panel steps through the xs (Panel's slider), and the panel that has the selection says
// what is selected (its aria valuetext) and marks it (Points' `active`, Cursor's `x`).
// One instance per figure; `xs` is read on every use, so it follows the drawn document.
import { nearest, stepAlong, stepsTo } from './axis';
import { panelReadout } from './text';
import type { FigureText } from '../content/types';

export class XSelection<P extends string = string> {
  /** the x picked by hover or keyboard; null until one is */
  picked = $state<number | null>(null);
  /** the panel that has the selection (hovered or focused), or null */
  focus = $state<P | null>(null);

  /** `xs`: the selectable values in order; `fallback`: the x shown before any is picked (default the last). */
  constructor(
    private readonly xs: () => readonly number[],
    private readonly fallback: (xs: readonly number[]) => number | null = (xs) => (xs.length ? xs[xs.length - 1] : null),
  ) {}

  /** A selection over the steps 1…n() of a run (n read on every use), step 1 before one is picked. */
  static ofSteps<P extends string = string>(n: () => number): XSelection<P> {
    let steps: number[] = [];
    return new XSelection<P>(
      () => (steps.length === n() ? steps : (steps = stepsTo(n()))),
      () => 1,
    );
  }

  /** The selected x: the picked one, else the fallback. */
  get at(): number | null {
    return this.picked ?? this.fallback(this.xs());
  }

  /** Of a figure's panels (keyed by `key`), the one that has the selection, else the first. */
  focused<T extends { key: P }>(panels: readonly T[]): T | undefined {
    return panels.find((q) => q.key === this.focus) ?? panels[0];
  }

  /** The selection as a panel marks it: the x while `id` has the selection, else null. */
  active(id: P): number | null {
    return this.focus === id ? this.at : null;
  }

  /** Panel's props for panel `id`: the slider's range and value, `readout` as its valuetext while
   *  it has the selection, and the key and focus handlers. */
  panel(id: P, readout: string) {
    const xs = this.xs();
    return {
      min: xs[0] ?? 0,
      max: xs[xs.length - 1] ?? 0,
      now: this.at ?? 0,
      valuetext: this.focus === id ? readout : undefined,
      onkeydown: (ev: KeyboardEvent) => {
        const next = stepAlong(this.xs(), this.at, ev.key);
        if (next == null) return;
        ev.preventDefault();
        this.focus = id;
        this.picked = next;
      },
      onfocus: () => {
        this.focus = id;
      },
      onblur: () => {
        if (this.focus === id) this.focus = null;
      },
    };
  }

  /** Chart's onpointer for panel `id`: the nearest x under the pointer; leaving the chart gives up
   *  the selection's focus (the picked x stays). */
  pointer(id: P) {
    return (q: { x: number } | null) => {
      if (q) {
        this.focus = id;
        this.picked = nearest(this.xs(), q.x);
      } else if (this.focus === id) this.focus = null;
    };
  }
}

/** A figure of panels over a run's steps (Figures 17, 19, 20): the step selection its panels share,
 *  and its readout: the title of the panel that has the selection (the first before one has it),
 *  the selected step (1 before one is picked), and the value there of each of that panel's series,
 *  or '' while the slot draws nothing. `drawn` (the figure's slot and chart, lib/result-slots
 *  withReference) and `words` are read on use, so it follows the drawn document and the language. */
export class StepPanels<S, T extends { key: string; series: readonly S[] }> {
  readonly sel: XSelection<string>;

  constructor(
    private readonly drawn: { readonly slot: { readonly data: unknown }; readonly c: { readonly steps: number; readonly panels: readonly T[] } },
    private readonly words: () => { text: FigureText; t: (k: string) => string },
    readonly title: (p: T) => string,
    private readonly name: (s: S) => string,
    private readonly value: (s: S, at: number) => string,
  ) {
    this.sel = XSelection.ofSteps<string>(() => drawn.c.steps);
  }

  /** The panels drawn (the drawn chart's). */
  get panels(): readonly T[] {
    return this.drawn.c.panels;
  }

  /** The selected step. */
  get at(): number {
    return this.sel.at ?? 1;
  }

  /** The readout at the selected step (above). */
  get readout(): string {
    const p = this.sel.focused(this.drawn.c.panels);
    const at = this.at;
    const { text, t } = this.words();
    return this.drawn.slot.data != null && p ? panelReadout(text, t, this.title(p), at, p.series, this.name, (s) => this.value(s, at)) : '';
  }
}
