// runs/headline.ts — the one line a run list entry shows of its results. Pure.
//   grid:        each placement's final seed-mean loss (lowest–highest over its lr × warm-up series),
//                after "article text (en)" for a grid on the article's text; a grid that stopped
//                before its end (cancelled, interrupted, streaming), the loss at the step it reached
//   probe:       the depths and placements it measured
//   experiments: the verdict of the claim the figure tests (its declaration's rule, experiments/<name>.ts;
//                experiments/verdicts.js), by the same rule as the prose, and of the further claims it decides
import { fmt } from '../format';
import { tpl } from '../text';
import { inDrawOrder, placementLabel } from '../placements';
import { seedMeanAt, type GridResult, type ProbeResult } from '../../engine/documents';
import { EXPERIMENT_SLOTS, judge, type ExperimentSlot, type SlotName } from '../slots';

const range = (xs: number[]) => {
  const f = xs.filter(Number.isFinite);
  if (!f.length) return '—';
  const lo = Math.min(...f);
  const hi = Math.max(...f);
  return fmt(lo) === fmt(hi) ? fmt(lo) : `${fmt(lo)}–${fmt(hi)}`;
};

/** A grid on the article's text says so first: "article text (en)". */
const dataOf = (g: GridResult, t: (k: string) => string) =>
  g.config?.data === 'text' ? tpl(t('runs.text'), { lang: String(g.config.text_lang ?? 'both') }) : '';

function gridHeadline(g: GridResult, t: (k: string) => string): string {
  const keys = new Set(g.runs.map((r) => `${r.placement}|${r.warmup}|${r.lr}`));
  const finals = new Map<string, number[]>();
  for (const k of keys) {
    const [p, w, lr] = k.split('|');
    // the seed mean's last step alone (a run of 10⁵ steps: its whole mean curve is not needed)
    const runs = g.runs.filter((r) => r.placement === p && r.warmup === Number(w) && r.lr === Number(lr));
    const m = runs.length ? seedMeanAt(runs, Math.min(...runs.map((r) => r.loss.length)) - 1) : undefined;
    if (m !== undefined) finals.set(p, [...(finals.get(p) ?? []), m]);
  }
  const parts = inDrawOrder(finals.keys()).map((p) => `${placementLabel(p, t)} ${range(finals.get(p)!)}`);
  // a grid that stopped before its end (cancelled, interrupted, still streaming) has no final loss:
  // its last computed step's loss, named so ("loss at step 137")
  const unfinished = g.runs.filter((r) => r.status === 'running');
  const word = unfinished.length ? tpl(t('runs.lossAt'), { step: Math.min(...unfinished.map((r) => r.loss.length)) }) : t('runs.finalLoss');
  return [dataOf(g, t), parts.length ? `${word} ${parts.join(' · ')}` : ''].filter(Boolean).join(' · ');
}

function probeHeadline(p: ProbeResult, t: (k: string) => string): string {
  const names = inDrawOrder(Object.keys(p.placements ?? {}));
  const depths = [...new Set(names.flatMap((n) => Object.keys(p.placements[n]?.lastW2_vs_L ?? {}).map(Number)))].sort((a, b) => a - b);
  const L = depths.length ? (depths.length === 1 ? `L = ${depths[0]}` : `L = ${depths[0]}–${depths[depths.length - 1]}`) : '';
  return [L, names.map((n) => placementLabel(n, t)).join(', ')].filter(Boolean).join(' · ');
}

/** The headline of `doc` as the document of `slot`; '' when there is nothing to say. Never throws
 *  (a partial document may not hold what a verdict needs). A slot whose verdict reads a second
 *  slot's document beside its own (`verdictWith`: output sensitivity's random perturbation and
 *  Adam's sign step) is judged with `withDoc`; without it (a reader's run of the one slot) it is
 *  judged on its own document alone, and the headline says so: the article's verdict, which reads
 *  both, may differ. */
export function headline(slot: SlotName, doc: unknown, t: (k: string) => string, withDoc: unknown = null): string {
  if (doc == null) return '';
  try {
    if (slot === 'grid') return gridHeadline(doc as GridResult, t);
    if (slot === 'probe') return probeHeadline(doc as ProbeResult, t);
    const decl = EXPERIMENT_SLOTS[slot as ExperimentSlot];
    const judged = judge(slot as ExperimentSlot, doc, withDoc);
    if (!decl || !judged) return '';
    // a label and its verdict with the language's colon (page-chrome sep.colon): "verdict: confirmed", "结论：成立"
    const labelled = (label: string, verdict: string) => `${t(label)}${t('sep.colon')}${t(`runs.verdict.${verdict}`)}`;
    const more = Object.entries(decl.alsoVerdicts ?? {}).map(([k, rule]) => ` · ${labelled(`runs.verdict.${k}`, rule(doc as never).verdict)}`);
    const alone = decl.verdictWith != null && withDoc == null;
    return `${labelled(alone ? 'runs.verdictAlone' : 'runs.verdict', judged.verdict)}${more.join('')}`;
  } catch {
    return '';
  }
}
