// run-length.ts — where a figure draws a run's length (its "never" line, the column past a run's
// end) when a reader's run is drawn over the reference, muted. Pure.
//
// The rule (one for every figure that draws a run-length line: fig8, fig13, fig14): the line, the
// markers of the runs that never left the plateau and every sentence about them (a note, a label)
// follow the drawn document's own steps, never the reference's: a 20-step run over a 500-step
// reference draws its line at step 20 and says "step 20". The reference keeps its own length for
// its muted markers, with a muted line of its own where that length differs, and the axis spans
// both.

export interface RunLengths {
  /** the drawn document's run length: its line, its "never" markers, its sentences */
  steps: number;
  /** the reference's run length (where its muted "never" markers sit); null without a reference */
  refSteps: number | null;
  /** the reference gets a muted line of its own: it is drawn and its length differs from `steps` */
  refLine: boolean;
  /** the longer of the two: the axis that holds both ends there */
  span: number;
}

/** The run lengths of a drawn document of `steps` steps over a reference of `refSteps` (null or 0:
 *  no reference drawn under it). */
export function runLengths(steps: number, refSteps: number | null | undefined): RunLengths {
  const own = Number.isFinite(steps) && steps > 0 ? steps : 0;
  const ref = refSteps != null && Number.isFinite(refSteps) && refSteps > 0 ? refSteps : null;
  return { steps: own, refSteps: ref, refLine: ref != null && ref !== own, span: Math.max(own, ref ?? 0) };
}
