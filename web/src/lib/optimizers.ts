// optimizers.ts — the page's optimizers: the engine's registry (generated/engine-schema.ts), in its
// order, each with its label and line style. The label is the page string `optimizer.<name>`
// (content/ui-strings.ts), else the name itself; the dash cycles through OPTIMIZER_DASHES in
// registry order (Adam solid, SGD with momentum dotted, RAdam dashed); optimizerLegend gives a legend's
// entries. Pure.
import { DASH } from './palette';
import { OPTIMIZERS } from '../generated/engine-schema';

/** The line styles of the optimizers, in registry order (then round again). */
export const OPTIMIZER_DASHES = [DASH.solid, DASH.dotted, DASH.dashed, DASH.long, DASH.dashDot, DASH.longShort] as const;

/** The dash pattern of an optimizer's series ('' — solid — for a name the registry lacks). */
export const optimizerDash = (o: string): string => {
  const i = (OPTIMIZERS as readonly string[]).indexOf(o);
  return i < 0 ? DASH.solid : OPTIMIZER_DASHES[i % OPTIMIZER_DASHES.length];
};

/** How the page names an optimizer: its string, else the name itself. */
export function optimizerLabel(o: string, t: (key: string) => string): string {
  const key = `optimizer.${o}`;
  const s = t(key);
  return s === key ? o : s;
}

/** The legend entries of the optimizers that `panels` draw, in the order they first appear: each
 *  optimizer's name and line style, in the text colour (the panels' colours are placements'). */
export const optimizerLegend = (panels: readonly { series: readonly { optimizer: string }[] }[], t: (key: string) => string) =>
  [...new Set(panels.flatMap((p) => p.series.map((s) => s.optimizer)))].map((o) => ({
    label: optimizerLabel(o, t),
    color: 'var(--fg)',
    dash: optimizerDash(o),
  }));
