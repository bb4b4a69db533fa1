// verdicts.js — the verdict on each of the article's inferences, computed from the experiments'
// documents (docs/experiments.md) by rules fixed here, before and whatever the data show. Each
// function takes result documents and returns { verdict, facts }: verdict is 'confirmed', 'refuted',
// 'qualified' (holds only under the conditions `facts` state) or 'untested' (the setting is too small
// to show the effect at all); facts are the numbers the sentence in docs/reproduction.md and on the
// page bind.
// "Too small" is decided before the rule, by a precondition derived from the claim's own logic (what
// a setting needs for the rule to be able to tell the claim from its negation: a depth range, a run
// length, a failure to remove), never from whether the claim then holds. When it fails the verdict is
// 'untested' and `facts.tooSmall` names why, a short key the sentence can quote with its numbers:
//   'depth-range'  the depths (or the depth) cannot separate the laws the rule compares;
//   'too-short'    the run is too short for the effect, or for the claim's positive control, to show;
//   'no-gap' / 'no-failure' / 'no-stall'  the setting lacks the phenomenon the claim explains
//                  (no gradient gap, no failure to remove, no stall to look into);
//   'no-sgd'       the setting has no SGD runs;
//   'no-runs'      the setting lacks the runs a rule compares (sharpness: Adam and GI-Adam, with and
//                  without a positive warm-up; adam-first-step's counterfactuals: a gated run and two
//                  GI-Adam runs);
//   'no-crossing'  no run without warm-up crosses the stability threshold (sharpness: no instability
//                  for a warm-up or GI-Adam to prevent).
//   'no-warmup' / 'no-placement'  the document lacks the runs the rule compares (no run without
//                  warm-up or none with one; a placement the rule reads is not in it).
//   'lr-range'     the learning rates span less than a factor of 100 (lr-sensitivity: an expectation
//                  over a range of lrs needs a range; Wortsman et al.'s spans 1000×).
// A setting these checks find too small never reads 'refuted'. They are necessary conditions, not
// sufficient ones: a setting that passes them can still miss an effect for reasons they do not
// foresee (docs/reproduction.md, "Quick settings of the experiment figures", lists such settings).
// Plain JavaScript (typed by verdicts.d.ts) so that scripts/reproduction.mjs, run by Node, and the
// page share one set of rules. Pure functions; tests/unit/verdicts.test.ts drives every branch.

const ratio = (a, b) => (b > 0 ? a / b : NaN);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** adam-first-step's runs of one optimizer (the document's first run's when not named), by placement
 *  (the first run of each placement). */
export function afsByPlacement(doc, optimizer = doc?.runs?.[0]?.optimizer) {
  const out = {};
  for (const r of doc?.runs ?? []) if (r.optimizer === optimizer && !(r.placement in out)) out[r.placement] = r;
  return out;
}
const at = (doc, p) => doc.placements[p];
/** Least-squares slope of ys on xs. */
const lsSlope = (xs, ys) => {
  const mx = mean(xs),
    my = mean(ys);
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return sxx > 0 ? xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / sxx : NaN;
};
const unique = (xs) => [...new Set(xs)].sort((a, b) => a - b);
/** Largest depth over smallest (NaN without depths). */
const depthRatio = (depths) => (depths.length ? Math.max(...depths) / Math.min(...depths) : NaN);
/** The log–log slope a pure O(log L) growth has over `depths`: the least-squares slope of ln(ln L)
 *  on ln L (about the mean of 1/ln L). Depths below 2 have no ln(ln L) and are left out; null with
 *  fewer than two depths left. */
export function logGrowthSlope(depths) {
  const ds = unique(depths.filter((L) => L >= 2));
  if (ds.length < 2) return null;
  const x = ds.map(Math.log);
  return lsSlope(x, x.map(Math.log));
}

/** Claim 1 (adam-first-step): the first Adam step moves every coordinate by ≈ lr whatever ‖g‖.
 *  Confirmed when every placement's step-1 update RMS/lr is within 5% of 1 and the placements'
 *  values are within 5% of each other while their gradient norms differ by ≥ 20%; qualified when
 *  that holds but by the last recorded step the update RMS differs ≥ 1.5× between placements.
 *  Too small ('untested'): 'no-gap' when the gradient norms differ by less than 20% (no scale for
 *  Adam to hide; Theorem 1's gap grows with depth), and 'too-short' when the first step holds but
 *  the run is shorter than Adam's momentum horizon 1/(1 − β1) steps (10 at β1 = 0.9): before that
 *  m̂/√v̂ is still about sign(g) in every coordinate, so whether the equalisation lasts cannot show. */
export function adamFirstStep(doc, a = 'post', b = 'pre') {
  const runs = afsByPlacement(doc);
  const A = runs[a],
    B = runs[b];
  const rms1 = [A.update_rms[0], B.update_rms[0]];
  const g1 = [A.grad_norm[0], B.grad_norm[0]];
  const T = Math.min(A.update_rms.length, B.update_rms.length);
  const rmsT = [A.update_rms[T - 1], B.update_rms[T - 1]];
  const gradGap = Math.max(...g1) / Math.min(...g1);
  const stepGap = Math.max(...rms1) / Math.min(...rms1);
  const laterGap = Math.max(...rmsT) / Math.min(...rmsT);
  const minSteps = Math.ceil(1 / (1 - (doc.config?.beta1 ?? 0.9)) - 1e-9);
  const facts = { rms1, g1, gradGap, stepGap, T, rmsT, laterGap, minSteps };
  if (gradGap < 1.2) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-gap' } };
  const first = rms1.every((r) => Math.abs(r - 1) <= 0.05) && stepGap <= 1.05;
  if (!first) return { verdict: 'refuted', facts };
  if (T < minSteps) return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  return { verdict: laterGap >= 1.5 ? 'qualified' : 'confirmed', facts };
}

/** Item 4 (adam-first-step, counterfactuals of claim 1): where does "the first step ≈ lr·sign(g)"
 *  stop holding? The sign-step reading (m̂₁/√v̂₁ = g/|g|, from m₀ = v₀ = 0) predicts two departures:
 *  (1) a tensor whose step-1 gradient is exactly 0 in every coordinate (the ReZero gate's branch
 *  weights, g₀ = 0) moves exactly 0 at step 1, under any optimizer, instead of ±lr; (2) with v₀ = g₁²
 *  (GI-Adam) every coordinate moves √(1 − β2)·lr: still whatever the gradient's scale, but
 *  √(1 − β2) of Adam's step. Confirmed when both hold: (1) every such tensor of every run has a step-1
 *  update RMS of exactly 0, and (2) every GI-Adam run with no such tensor has a step-1 update RMS/lr
 *  within 5% of √(1 − β2), those runs within 5% of each other while their step-1 gradient norms
 *  differ by ≥ 20%. Refuted when either fails. Too small ('untested'): 'no-runs' when the document has
 *  no run with an all-zero-gradient tensor or fewer than two GI-Adam runs without one; 'no-gap' when
 *  those GI-Adam runs' gradient norms differ by less than 20% (no scale for the step to ignore).
 *  Facts besides: per gated run, the share of its parameters that stay put at step 1 and its overall
 *  step-1 update RMS/lr, and the gated tensors' update RMS/lr at step 2 (when the gate has opened); the facts the sentence quotes as ratios are named ratio… (lib/prose-numbers.ts formats them to 3 significant digits);
 *  the tensors whose step-1 gradient is not 0 but below 100·ε (float noise around an exact 0, such as
 *  the key biases' under softmax), with their step, which neither departure above describes. */
export function adamFirstStepCounterfactual(doc) {
  const runs = doc?.runs ?? [];
  const beta2 = doc.config?.beta2 ?? 0.98;
  const eps = doc.config?.eps ?? 1e-8;
  const giExpected = Math.sqrt(1 - beta2);
  const zeroTensors = (r) => r.tensors.filter((t) => t.zero_grad_share1 === 1);
  const rmsOf = (ts, i) => {
    const n = ts.reduce((a, t) => a + t.size, 0);
    return n > 0 ? Math.sqrt(ts.reduce((a, t) => a + t.size * (t.step_over_lr[i] ?? NaN) ** 2, 0) / n) : NaN;
  };
  const gated = runs
    .filter((r) => zeroTensors(r).length > 0)
    .map((r) => {
      const z = zeroTensors(r);
      const n = r.tensors.reduce((a, t) => a + t.size, 0);
      return {
        placement: r.placement,
        optimizer: r.optimizer,
        frozenShare: z.reduce((a, t) => a + t.size, 0) / n,
        rms1: r.update_rms[0],
        zeroStep1: rmsOf(z, 0),
        zeroStep2: z[0].step_over_lr.length > 1 ? rmsOf(z, 1) : null,
      };
    });
  const gi = runs
    .filter((r) => r.optimizer === 'gi-adam' && zeroTensors(r).length === 0)
    .map((r) => ({ placement: r.placement, rms1: r.update_rms[0], g1: r.grad_norm[0] }));
  const tiny = runs.flatMap((r) =>
    r.tensors
      .filter((t) => t.grad_rms1 > 0 && t.grad_rms1 < 100 * eps && t.zero_grad_share1 < 1)
      .map((t) => ({ placement: r.placement, optimizer: r.optimizer, name: t.name, gradRms: t.grad_rms1, step1: t.step_over_lr[0] })),
  );
  const g1 = gi.map((r) => r.g1);
  const giRms = gi.map((r) => r.rms1);
  const gradGap = gi.length >= 2 ? Math.max(...g1) / Math.min(...g1) : NaN;
  const giGap = gi.length >= 2 ? Math.max(...giRms) / Math.min(...giRms) : NaN;
  // flat facts for the sentence: the first gated run's (Adam's where there is one), GI-Adam's step-1 values
  const g0 = gated.find((g) => g.optimizer === 'adam') ?? gated[0];
  const flat = {
    gatedPlacement: g0?.placement ?? null,
    frozenPct: g0 ? 100 * g0.frozenShare : null,
    ratioGatedRms1: g0?.rms1 ?? null,
    zeroStep1: g0?.zeroStep1 ?? null,
    ratioZeroStep2: g0?.zeroStep2 ?? null,
    ratioGiRms1: giRms,
    ratioGiExpected: giExpected,
    ratioTinyStep1Max: tiny.length ? Math.max(...tiny.map((t) => t.step1)) : null,
    ratioTinyGradMax: tiny.length ? Math.max(...tiny.map((t) => t.gradRms)) : null,
  };
  const facts = { beta2, giExpected, gated, gi, giGap, gradGap, tiny, ...flat };
  if (gated.length === 0 || gi.length < 2) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-runs' } };
  if (gradGap < 1.2) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-gap' } };
  const zeroHolds = gated.every((g) => g.zeroStep1 === 0);
  const giHolds = giRms.every((r) => Math.abs(r / giExpected - 1) <= 0.05) && giGap <= 1.05;
  return { verdict: zeroHolds && giHolds ? 'confirmed' : 'refuted', facts: { ...facts, zeroHolds, giHolds } };
}

const layerMean = (cell) => mean(cell.layer_dlogits2.map((x) => x.mean));

/** The depth trend between two near-best ranges [lo, hi] of η (step-size's `eta_near_best`, the η
 *  whose seed-mean loss is within eta_margin·loss0 of the lowest): 'falls' when the deeper range lies
 *  wholly below the shallower one (its hi under the other's lo), 'rises' when wholly above, and
 *  'overlap' otherwise, when some η is near-best at both depths and no trend is read. A range cut by
 *  the grid's end can only be wider on that side, which moves neither strict inequality's answer
 *  toward a trend that is not there. */
export function etaTrend(shallow, deep) {
  if (deep[1] < shallow[0]) return 'falls';
  if (deep[0] > shallow[1]) return 'rises';
  return 'overlap';
}

/** Claim 2 (step-size): the final LN shrinks an update's effect on the output. Rule: the ratio r(L)
 *  of Pre-LN's to Post-LN's mean one-layer ‖Δlogits‖² at the largest depth is at most half its value
 *  at the smallest (Pre-LN's layers move the output less and less, relative to Post-LN's); qualified
 *  when it is but Pre-LN's best whole-model sign step falls with depth all the same, read from the
 *  ranges, not the argmin η*: Pre-LN's near-best range of η (`eta_near_best`) at the largest depth
 *  lies wholly below the one at the smallest (etaTrend 'falls'). Where the two ranges overlap the
 *  η* trend is not resolved and qualifies nothing (the verdict is the one-layer rule's, and the
 *  sentence gives the ranges); an argmin that moves inside overlapping ranges is noise, not a trend.
 *  `stepsPre` / `stepsPost` are etaTrend between successive depths, for each placement (the depth
 *  reading of η* the sentence may state; a step 'overlap' there states no trend).
 *  Too small ('untested', 'depth-range'): fewer than two depths, or the largest under twice the
 *  smallest. Under the damping the claim describes, one Pre-LN layer's squared effect on the logits
 *  falls as 1/‖x_L‖² ∝ 1/L relative to Post-LN's, so the ratio halves only over a doubling of depth:
 *  over less the rule's halving cannot show even when the mechanism works exactly. */
export function stepSize(doc, post = 'post', pre = 'pre') {
  const P = at(doc, post),
    Q = at(doc, pre);
  const r = Q.map((c, i) => ratio(layerMean(c), layerMean(P[i])));
  const depths = Q.map((c) => c.layers);
  const etaPre = Q.map((c) => c.eta_star_of_mean);
  const etaPost = P.map((c) => c.eta_star_of_mean);
  const near = (cells) => cells.map((c) => c.eta_near_best);
  const steps = (cells) => cells.slice(1).map((c, i) => etaTrend(cells[i].eta_near_best, c.eta_near_best));
  const nearPre = near(Q),
    nearPost = near(P);
  const n = Q.length;
  const facts = {
    depths,
    r,
    etaPre,
    etaPost,
    rFirst: r[0],
    rLast: r[n - 1],
    depthRatio: depthRatio(depths),
    nearPre,
    nearPost,
    usefulPre: Q.map((c) => c.eta_max_useful ?? null),
    usefulPost: P.map((c) => c.eta_max_useful ?? null),
    trendPre: n ? etaTrend(nearPre[0], nearPre[n - 1]) : null,
    stepsPre: steps(Q),
    stepsPost: steps(P),
    depthFirst: depths[0],
    depthLast: depths[n - 1],
    etaNearPreFirstLo: nearPre[0]?.[0],
    etaNearPreFirstHi: nearPre[0]?.[1],
    etaNearPreLastLo: nearPre[n - 1]?.[0],
    etaNearPreLastHi: nearPre[n - 1]?.[1],
    margin: doc.config?.eta_margin ?? null,
  };
  if (unique(depths).length < 2 || !(facts.depthRatio >= 2)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'depth-range' } };
  if (!(r[n - 1] <= 0.5 * r[0])) return { verdict: 'refuted', facts };
  return { verdict: facts.trendPre === 'falls' ? 'qualified' : 'confirmed', facts };
}

/** Claim 3 (output-sensitivity): Post-LN's output change grows like O(L), Pre-LN's like O(log L)
 *  (and Admin's like Pre-LN's). On a log–log fit over the depths, O(L) has slope 1 and ln L over
 *  2…32 slope 0.58: confirmed when Post-LN's slope is ≥ 0.75 and Pre-LN's (and Admin's, when
 *  measured) ≤ 0.6, for a random perturbation. With `sign` (the same for Adam's sign step), qualified
 *  when the rule fails there.
 *  Too small ('untested', 'depth-range'): over a document's depths a pure O(log L) growth has a
 *  log–log slope of about the mean of 1/ln L (logGrowthSlope: 0.79 over 2, 4, 8; 0.56 over 2 … 32);
 *  when that is above the 0.6 the rule allows Pre-LN, O(log L) itself would fail the rule, so the
 *  depths cannot separate O(L) from O(log L). Checked for the random document and, when given, the
 *  sign one; `lnSlope` and `depths` are those of the document that fails (else the random one's). */
export function outputSensitivity(random, sign = null) {
  const slope = (doc, p) => doc?.placements[p]?.slope ?? null;
  const facts = {
    post: slope(random, 'post'),
    pre: slope(random, 'pre'),
    admin: slope(random, 'admin'),
    deepnorm: slope(random, 'deepnorm'),
    peri: slope(random, 'peri'),
    signPost: slope(sign, 'post'),
    signPre: slope(sign, 'pre'),
  };
  const depthsOf = (doc) => doc?.config?.depths ?? Object.values(doc?.placements ?? {})[0]?.depths?.map((c) => c.layers) ?? null;
  const range = (doc) => {
    const depths = depthsOf(doc);
    return depths ? { depths, lnSlope: logGrowthSlope(depths) } : null;
  };
  const tooSmall = (x) => x != null && !(x.lnSlope != null && x.lnSlope <= 0.6);
  const rr = range(random),
    rs = sign ? range(sign) : null;
  const shown = tooSmall(rr) || !tooSmall(rs) ? rr : rs;
  Object.assign(facts, { depths: shown?.depths ?? null, lnSlope: shown?.lnSlope ?? null });
  if (tooSmall(rr) || tooSmall(rs)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'depth-range' } };
  const holds = (p, q, adm) => p >= 0.75 && q <= 0.6 && (adm == null || adm <= 0.6);
  if (!holds(facts.post, facts.pre, facts.admin)) return { verdict: 'refuted', facts };
  if (sign && !holds(facts.signPost, facts.signPre, null)) return { verdict: 'qualified', facts };
  return { verdict: 'confirmed', facts };
}

/** Claim 4 (warmup-length): warm-up, RAdam and Pre-LN each remove a condition of Post-LN's failure.
 *  At the smallest lr factor: confirmed when Post-LN + Adam without warm-up never escapes while
 *  Post-LN + Adam with some warm-up, Post-LN + RAdam without warm-up and Pre-LN + Adam without
 *  warm-up each escape (seed-mean curves); refuted when one of the three remedies does not escape;
 *  untested when Post-LN + Adam without warm-up escapes (no failure to remove: 'no-failure').
 *  Too short ('untested', 'too-short'): a remedy that does not escape only refutes the claim if the
 *  run was long enough for it to. Pre-LN + Adam without warm-up is the toy's positive control (it
 *  trains from step 0 and never needs warm-up), so its escape step is the time a model that trains
 *  needs here: when it does not escape within `steps` the run is too short; when a warm-up remedy
 *  fails and no tried warm-up leaves that time after it ends (w + Pre-LN's escape step > steps),
 *  or RAdam fails and the run does not leave that time after RAdam's built-in warm-up, whose
 *  effective length is 2/(1 − β2) steps (100 at β2 = 0.98; Ma & Yarats 2021), it is too short too. */
export function warmupLength(doc) {
  const g = (placement, optimizer, warmup, lr) =>
    doc.groups.find((x) => x.placement === placement && x.optimizer === optimizer && x.warmup === warmup && x.lr === lr);
  const lrOf = (o) => Math.min(...doc.groups.filter((x) => x.optimizer === o).map((x) => x.lr));
  const warmups = [...new Set(doc.groups.map((x) => x.warmup))].sort((a, b) => a - b);
  const esc = (p, o, w) => g(p, o, w, lrOf(o))?.escape_step ?? null;
  const facts = {
    lr: lrOf('adam'),
    postAdam: Object.fromEntries(warmups.map((w) => [w, esc('post', 'adam', w)])),
    postRadam0: esc('post', 'radam', 0),
    preAdam0: esc('pre', 'adam', 0),
    postSgd: Object.fromEntries(warmups.map((w) => [w, esc('post', 'sgd', w)])),
  };
  facts.firstWarmupThatEscapes = warmups.find((w) => w > 0 && facts.postAdam[w] != null) ?? null;
  facts.postAdam0 = facts.postAdam[0] ?? null;
  facts.steps = doc.config?.steps ?? null;
  facts.radamWarmup = Math.round(2 / (1 - (doc.config?.beta2 ?? 0.98)));
  // The same remedies at the largest lr factor (reported, not part of the rule).
  const hi = (o) => Math.max(...doc.groups.filter((x) => x.optimizer === o).map((x) => x.lr));
  facts.lrHi = hi('adam');
  facts.postRadam0Hi = g('post', 'radam', 0, hi('radam'))?.escape_step ?? null;
  facts.firstWarmupThatEscapesHi = warmups.find((w) => w > 0 && g('post', 'adam', w, facts.lrHi)?.escape_step != null) ?? null;
  if (facts.postAdam[0] != null) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-failure' } };
  const remedies = [facts.firstWarmupThatEscapes != null, facts.postRadam0 != null, facts.preAdam0 != null];
  if (remedies.every(Boolean)) return { verdict: 'confirmed', facts };
  const steps = facts.steps ?? Infinity;
  const roomAfter = (w) => w + facts.preAdam0 <= steps;
  const short =
    facts.preAdam0 == null ||
    (facts.firstWarmupThatEscapes == null && !warmups.some((w) => w > 0 && roomAfter(w))) ||
    (facts.postRadam0 == null && !roomAfter(facts.radamWarmup));
  return short ? { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } } : { verdict: 'refuted', facts };
}

/** Claim 6 (plateau-share): Post-LN's stall is a frequency-only plateau, not divergence. For the
 *  Post-LN run without warm-up: on the plateau at its end (mean of the last 50 losses within 0.3 of
 *  the plateau entropy), status ok, and its last layer's token-specific share at the end below half
 *  its value at step 0 → confirmed; on the plateau and ok but the share not halved → refuted;
 *  the run left the plateau or stopped → untested ('no-stall': no stall to look into).
 *  Too short ('untested', 'too-short'): a stall is only a stall if a model that trains has left the
 *  plateau in the same number of steps. The Pre-LN run without warm-up, when the document has it, is
 *  that positive control: if the mean of its last 50 losses is not more than 0.3 below the plateau
 *  (the rule's own plateau band), the run is too short to tell a stall from a slow start. */
export function plateauShare(doc) {
  const run = doc.runs.find((r) => r.placement === 'post' && r.warmup === 0);
  const last = (r) => r.share[r.share.length - 1][r.share[0].length - 1];
  const tail = run.loss.slice(-50);
  const facts = {
    plateau: doc.plateau_entropy,
    endLoss: tail.length ? mean(tail) : NaN,
    status: run.status,
    share0: run.share[0][run.share[0].length - 1],
    shareEnd: last(run),
    others: doc.runs.filter((r) => r !== run).map((r) => ({ placement: r.placement, warmup: r.warmup, shareEnd: last(r) })),
  };
  const control = doc.runs.find((r) => r.placement === 'pre' && r.warmup === 0);
  facts.preEndLoss = control?.loss.length ? mean(control.loss.slice(-50)) : null;
  if (!(Math.abs(facts.endLoss - facts.plateau) <= 0.3) || run.status !== 'ok') return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-stall' } };
  if (control && !(facts.preEndLoss < facts.plateau - 0.3)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  return { verdict: facts.shareEnd < 0.5 * facts.share0 ? 'confirmed' : 'refuted', facts };
}

/** Claim 7 (tied-output): Pre-LN's last-layer W² gradient falls faster than 1/√L because of the
 *  tied embedding's share in the output. Confirmed when the tied, √d model's log–log slope is below
 *  −0.75 and each other variant's (untied, or no √d) is within ±0.25 of −½; refuted when the
 *  tied √d slope is not below −0.75, or the other variants fall as fast.
 *  Too small ('untested', 'depth-range'): fewer than three depths, or the largest under twice the
 *  smallest. The rule tells slopes 0.25 apart (−½ against below −0.75, and −½ ± 0.25); across the
 *  depths that difference is a factor (L_max/L_min)^0.25 in the gradient, under 2^0.25 ≈ 1.19 for
 *  less than a doubling, and with two depths a slope is a line through two points that cannot show
 *  whether the fall is a power of L at all. */
export function tiedOutput(doc, p = 'pre') {
  const v = (output, input) => doc.variants.find((x) => x.output === output && x.input_scale === input);
  const slope = (output, input) => v(output, input).placements[p].slope_per_batch;
  const facts = {
    tiedSqrt: slope('tied', 'sqrt_d'),
    tiedNone: slope('tied', 'none'),
    untiedSqrt: slope('untied', 'sqrt_d'),
    untiedNone: slope('untied', 'none'),
    pCurrent: v('tied', 'sqrt_d').placements[p].depths.map((c) => c.p_current.mean),
    depths: v('tied', 'sqrt_d').placements[p].depths.map((c) => c.layers),
    uniform: doc.uniform_p,
  };
  facts.depthRatio = depthRatio(facts.depths);
  if (unique(facts.depths).length < 3 || !(facts.depthRatio >= 2)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'depth-range' } };
  const others = [facts.tiedNone, facts.untiedSqrt, facts.untiedNone];
  const ok = facts.tiedSqrt < -0.75 && others.every((s) => Math.abs(s + 0.5) <= 0.25);
  return { verdict: ok ? 'confirmed' : 'refuted', facts };
}

/** Claim 5 (warmup-length, SGD rows): the paper's SGD control ("without Adam, warm-up is still
 *  needed") is weak because SGD trains Transformers badly anyway. At SGD's smallest lr: refuted
 *  when Pre-LN with SGD escapes without warm-up (SGD can train this model) while Post-LN with SGD
 *  stalls without warm-up and escapes with some warm-up (the control shows what the paper says);
 *  confirmed when Pre-LN with SGD does not escape either (SGD fails regardless of the norm);
 *  untested without SGD runs ('no-sgd'), or when Post-LN with SGD escapes without warm-up
 *  ('no-failure').
 *  Too short ('untested', 'too-short'): "SGD fails regardless" needs a run in which the model can
 *  be trained at all, shown by the positive control Pre-LN + Adam without warm-up escaping (at
 *  Adam's smallest lr); without it a Pre-LN + SGD run that does not escape may just be too short.
 *  "No warm-up rescues Post-LN" needs a tried warm-up w that leaves, after it ends, the time
 *  Pre-LN + SGD took to escape from step 0 (w + its escape step ≤ steps). */
export function sgdControl(doc) {
  const sgd = doc.groups.filter((x) => x.optimizer === 'sgd');
  const steps = doc.config?.steps ?? null;
  const adamLr = Math.min(...doc.groups.filter((x) => x.optimizer === 'adam').map((x) => x.lr));
  const preAdam0 = doc.groups.find((x) => x.placement === 'pre' && x.optimizer === 'adam' && x.warmup === 0 && x.lr === adamLr)?.escape_step ?? null;
  if (!sgd.length)
    return { verdict: 'untested', facts: { lr: null, post0: null, pre0: null, firstWarmupThatEscapes: null, steps, preAdam0, tooSmall: 'no-sgd' } };
  const lr = Math.min(...sgd.map((x) => x.lr));
  const warmups = [...new Set(sgd.map((x) => x.warmup))].sort((a, b) => a - b);
  const esc = (p, w) => sgd.find((x) => x.placement === p && x.warmup === w && x.lr === lr)?.escape_step ?? null;
  const facts = {
    lr,
    post: Object.fromEntries(warmups.map((w) => [w, esc('post', w)])),
    pre0: esc('pre', 0),
    firstWarmupThatEscapes: warmups.find((w) => w > 0 && esc('post', w) != null) ?? null,
    post0: esc('post', 0),
    steps,
    preAdam0,
  };
  const short = { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  if (facts.post[0] != null) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-failure' } };
  if (facts.pre0 == null) return preAdam0 == null ? short : { verdict: 'confirmed', facts };
  if (facts.firstWarmupThatEscapes != null) return { verdict: 'refuted', facts };
  return warmups.some((w) => w > 0 && w + facts.pre0 <= (steps ?? Infinity)) ? { verdict: 'qualified', facts } : short;
}

/** Claim 8 (depth-factors): Appendix F's (2/3)^((L−l)/2) decay omits the residual Jacobian; at init
 *  Post-LN's gradient is flat in depth. With r = W²(layer 1)/W²(layer L) (per-batch statistic) and
 *  Appendix F's r_F = (2/3)^((L−1)/2): refuted when |ln r| ≥ ½·|ln r_F| (the measured profile is
 *  at least as close to Appendix F's decay as to flat, in log space). Otherwise confirmed when the
 *  mechanism shows too: the norms shrink the gradient (per-layer geometric-mean norm factor ≤ 0.95)
 *  and the residual Jacobian gives it back (|ln(norm × residual)| ≤ ½·|ln norm|); qualified when
 *  the profile is flat but not for that reason.
 *  Too small ('untested', 'depth-range'): Appendix F's decay must at least halve the gradient from
 *  the last layer to layer 1 (r_F ≤ ½, 5 layers or more). The rule's boundary lies half-way in log
 *  space, at √r_F; with a smaller predicted decay it would sit within ±41% of flat, where a flat
 *  profile's ordinary layer-to-layer scatter (the article's own Post-LN layers span 1.05–1.17)
 *  could land on either side. */
export function depthFactors(doc, p = 'post') {
  const P = at(doc, p);
  const w2 = P.W2_per_batch.mean;
  const g = P.geomean_per_layer;
  const ffnNorm = P.factors.slice(1).map((f) => f.ffn.norm_factor.mean);
  const ffnResidual = P.factors.slice(1).map((f) => f.ffn.residual_factor.mean);
  const facts = {
    L: doc.layers,
    r: P.first_over_last,
    rF: P.appendix_f_first_over_last,
    normFactor: g.norm_factor,
    residualFactor: g.residual_factor,
    factor: g.factor,
    ffnNorm: mean(ffnNorm),
    ffnResidual: mean(ffnResidual),
    w2Min: Math.min(...w2),
    w2Max: Math.max(...w2),
  };
  if (!(facts.rF <= 0.5) || !(facts.r > 0)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'depth-range' } };
  if (Math.abs(Math.log(facts.r)) >= 0.5 * Math.abs(Math.log(facts.rF))) return { verdict: 'refuted', facts };
  const shrinks = facts.normFactor <= 0.95;
  const restored = Math.abs(Math.log(facts.normFactor * facts.residualFactor)) <= 0.5 * Math.abs(Math.log(facts.normFactor));
  return { verdict: shrinks && restored ? 'confirmed' : 'qualified', facts };
}

/** The readings of a `sharpness` document that both of its rules use. r_t = λ_t / threshold_t, the
 *  preconditioned sharpness of step t over the optimizer's stability threshold at that step's lr
 *  (above 1: step t is unstable on a quadratic with that curvature). The window is the measured steps
 *  1 ≤ t ≤ w of the shortest positive warm-up w in the document (the steps a warm-up covers; Infinity
 *  when there is none). Over the window a group of runs (placement, optimizer, warm-up; its seeds):
 *  'crosses' when every seed's run has r_t > 1 at some measured step of the window, or stopped (nan,
 *  diverged) within it; 'under' when every seed's run has r_t ≤ 1 at every measured step of the
 *  window and ran through it; 'mixed' otherwise (seeds disagree); null without runs. `max` is the
 *  largest r_t of the window over the seeds; the facts add the largest after it and the window's
 *  largest with issue 30's P = diag(√v̂ + ε) (ratioPlain…), neither ruled on. */
function sharpnessReadings(doc) {
  const runs = doc.runs ?? [];
  const w = Math.min(...runs.map((r) => r.warmup).filter((x) => x > 0));
  const placements = [...new Set(runs.map((r) => r.placement))];
  const steps = doc.config?.steps ?? Math.max(0, ...runs.map((r) => r.loss?.length ?? 0));
  // the measured steps of the window: those of the run measured longest (a stopped run has fewer)
  const measured = Math.max(0, ...runs.map((r) => r.steps.filter((t) => t <= w).length));
  const read = (p, o, wu) => {
    const rs = runs.filter((r) => r.placement === p && r.optimizer === o && r.warmup === wu);
    if (!rs.length) return null;
    const per = rs.map((r) => {
      const ratios = r.steps.flatMap((t, i) => (t <= w ? [r.sharpness[i] / r.threshold[i]] : []));
      const stopped = r.status !== 'ok' && r.status !== 'running' && r.stop_step > 0 && r.stop_step <= w;
      return { max: ratios.length ? Math.max(...ratios) : NaN, stopped, through: !stopped && ratios.length === measured };
    });
    const crosses = per.every((x) => x.stopped || x.max > 1);
    const under = per.every((x) => x.through && x.max <= 1);
    return { reading: crosses ? 'crosses' : under ? 'under' : 'mixed', max: Math.max(...per.map((x) => x.max)) };
  };
  const at = (p, o, wu) => read(p, o, wu)?.max ?? null;
  // reported, not ruled on: the window's largest ratio with P = diag(√v̂ + ε), issue 30's P, which
  // leaves out Cohen et al.'s factor 1 − β1ᵗ (λ × (1 − β1ᵗ); the rules use Cohen et al.'s P)
  const b1 = doc.config?.beta1 ?? 0.9;
  const plain = (p, o, wu) => {
    const xs = runs
      .filter((r) => r.placement === p && r.optimizer === o && r.warmup === wu)
      .flatMap((r) => r.steps.flatMap((t, i) => (t <= w ? [((1 - b1 ** t) * r.sharpness[i]) / r.threshold[i]] : [])));
    return xs.length ? Math.max(...xs) : null;
  };
  // reported, not ruled on: the largest ratio after the window (the peak lr reached), over seeds
  const after = (p, o, wu) => {
    const xs = runs
      .filter((r) => r.placement === p && r.optimizer === o && r.warmup === wu)
      .flatMap((r) => r.steps.flatMap((t, i) => (t > w ? [r.sharpness[i] / r.threshold[i]] : [])));
    return xs.length ? Math.max(...xs) : null;
  };
  // GI-Adam's reduction of step 1's preconditioned sharpness: the seed mean of λ_Adam(1)/λ_GI-Adam(1)
  const step1 = (p) => {
    const ratios = runs
      .filter((r) => r.placement === p && r.optimizer === 'adam' && r.warmup === 0 && r.steps[0] === 1)
      .flatMap((a) => {
        const g = runs.find((r) => r.placement === p && r.optimizer === 'gi-adam' && r.warmup === 0 && r.seed === a.seed && r.steps[0] === 1);
        return g ? [a.sharpness[0] / g.sharpness[0]] : [];
      });
    return ratios.length ? mean(ratios) : null;
  };
  const facts = {
    window: Number.isFinite(w) ? w : null,
    measured,
    steps,
    placements,
    ratioAdam0Post: at('post', 'adam', 0),
    ratioAdamWPost: at('post', 'adam', w),
    ratioGi0Post: at('post', 'gi-adam', 0),
    ratioAdam0Pre: at('pre', 'adam', 0),
    ratioAdamWPre: at('pre', 'adam', w),
    ratioGi0Pre: at('pre', 'gi-adam', 0),
    ratioStep1Post: step1('post'),
    ratioStep1Pre: step1('pre'),
    ratioAfterAdamWPost: after('post', 'adam', w),
    ratioAfterAdamWPre: after('pre', 'adam', w),
    ratioAfterGi0Post: after('post', 'gi-adam', 0),
    ratioAfterGi0Pre: after('pre', 'gi-adam', 0),
    ratioPlainAdam0Post: plain('post', 'adam', 0),
    ratioPlainAdam0Pre: plain('pre', 'adam', 0),
    ratioPlainGi0Post: plain('post', 'gi-adam', 0),
    ratioPlainGi0Pre: plain('pre', 'gi-adam', 0),
    // estimates that stopped at lanczos_steps without meeting lanczos_tol, of all
    unconverged: runs.reduce((a, r) => a + (r.converged ?? []).filter((c) => !c).length, 0),
    estimates: runs.reduce((a, r) => a + r.steps.length, 0),
  };
  // the precondition both rules share: a window of at least 3 measured steps, seen to its end
  const short = !(measured >= 3 && steps >= w);
  return { read, placements, w, facts, short };
}

/** Claim (sharpness, Cohen et al. 2022; Kalra & Barkeshli 2024): warm-up keeps Adam's early steps
 *  under its stability threshold. Over the window (sharpnessReadings): the placements where Adam
 *  without warm-up crosses the threshold are the ones where a warm-up has something to do; in each of
 *  them Adam with the warm-up w either stays under ('kept') or not. Confirmed when it is kept under in
 *  every such placement, refuted when in none, qualified when in some.
 *  Too small ('untested'): 'no-runs' without Adam runs with and without a positive warm-up;
 *  'too-short' when the window holds fewer than 3 measured steps (step 1 and two more: one point
 *  cannot show a run staying under) or the run ends before the warm-up does (the warm-up's last,
 *  largest learning rates unseen); 'no-crossing' when Adam without warm-up crosses in no placement
 *  (no instability for the warm-up to prevent). */
export function sharpnessWarmup(doc) {
  const { read, placements, w, facts, short } = sharpnessReadings(doc);
  const crossing = placements.filter((p) => read(p, 'adam', 0)?.reading === 'crosses');
  const kept = crossing.filter((p) => read(p, 'adam', w)?.reading === 'under');
  Object.assign(facts, { crossing, kept, nCrossing: crossing.length, nKept: kept.length });
  if (!placements.some((p) => read(p, 'adam', 0) && read(p, 'adam', w))) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-runs' } };
  if (short) return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  if (!crossing.length) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-crossing' } };
  return { verdict: kept.length === crossing.length ? 'confirmed' : kept.length ? 'qualified' : 'refuted', facts };
}

/** Claim (sharpness, Kalra & Barkeshli 2024): GI-Adam (v₀ = g₁²) removes the need for warm-up here.
 *  In each placement where Adam without warm-up crosses the threshold over the window (the need for
 *  warm-up, in this measure), GI-Adam without warm-up either stays under it over the same window or
 *  not. Confirmed when it stays under in every such placement, refuted when in none, qualified when in
 *  some. Too small ('untested'): 'no-runs' without Adam and GI-Adam runs without warm-up and a
 *  positive warm-up to set the window; 'too-short' and 'no-crossing' as in sharpnessWarmup. */
export function sharpnessGiAdam(doc) {
  const { read, placements, w, facts, short } = sharpnessReadings(doc);
  const crossing = placements.filter((p) => read(p, 'adam', 0)?.reading === 'crosses');
  const kept = crossing.filter((p) => read(p, 'gi-adam', 0)?.reading === 'under');
  Object.assign(facts, { crossing, giKept: kept, nCrossing: crossing.length, nGiKept: kept.length });
  if (!Number.isFinite(w) || !placements.some((p) => read(p, 'adam', 0) && read(p, 'gi-adam', 0)))
    return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-runs' } };
  if (short) return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  if (!crossing.length) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-crossing' } };
  return { verdict: kept.length === crossing.length ? 'confirmed' : kept.length ? 'qualified' : 'refuted', facts };
}

// ---- phase-diagram (docs/experiments.md): claims 9 and 10 -------------------------------------
// A phase-diagram document's cells are (placement, warm-up, depth, peak lr), each with the outcome
// of the majority of its seeds ('trained', 'plateau', 'diverged', or 'mixed' when none has more than
// half) and its runs, one per seed: { seed, outcome, stopped, escape_step, final_loss }.
const phaseCell = (doc, placement, warmup, layers, lr) =>
  doc.cells.find((c) => c.placement === placement && c.warmup === warmup && c.layers === layers && c.lr === lr) ?? null;
const outcomeOf = (cell) => cell?.outcome ?? null;
/** The (depth, lr) points of a placement's cells, by depth then lr. */
const phasePoints = (doc, placement) => {
  const seen = new Map();
  for (const c of doc.cells) if (c.placement === placement) seen.set(`${c.layers}|${c.lr}`, { layers: c.layers, lr: c.lr });
  return [...seen.values()].sort((a, b) => a.layers - b.layers || a.lr - b.lr);
};
/** Mean over the seeds run in both cells (paired by seed) of f(run in b) − f(run in a), where both
 *  values are numbers; null when no seed has both. */
const pairedGap = (a, b, f) => {
  const d = [];
  for (const r of a?.runs ?? []) {
    const q = b?.runs.find((x) => x.seed === r.seed);
    const x = q ? f(r) : null,
      y = q ? f(q) : null;
    if (typeof x === 'number' && typeof y === 'number') d.push(y - x);
  }
  return d.length ? mean(d) : null;
};
const escOf = (r) => r.escape_step;
/** A run's final loss where it ran to its last step and trained (a settled run's stops early). */
const endLossOf = (r) => (r.outcome === 'trained' && r.stopped === 'end' ? r.final_loss : null);
const seedEscapes = (cell) => (cell?.runs ?? []).map((r) => r.escape_step ?? null);
const maxOrNull = (xs) => (xs.length ? Math.max(...xs) : null);
const meanOrNull = (xs) => (xs.length ? mean(xs) : null);

/** Claim 9 (phase-diagram, Pre-LN over peak lrs × warm-up {0, W}): for Pre-LN, warm-up is
 *  insurance, no cost and little benefit. W is the document's longest warm-up; at each (depth, lr)
 *  the cell without warm-up is compared with the cell with W, by their majority outcomes:
 *  'rescued' where it does not train without warm-up and trains with it (the insurance pays out),
 *  'harmed' where it trains without and not with it. Where both train, the cost: the escape delay,
 *  the mean over seeds of (escape step with W) − (escape step without), and, for runs that ran to
 *  their last step, the final-loss gap (with − without, its mean over seeds).
 *  Refuted when warm-up costs: it harms at some lr, or delays the escape by more than W (more than
 *  the warm-up's own length), or leaves the final loss more than 0.1 nats higher at some lr.
 *  Otherwise qualified when it rescues at some lr (a benefit where the run fails without it: at
 *  those lrs the benefit is not little) and confirmed when it changes no outcome (its only cost a
 *  delay within its own length).
 *  Too small ('untested'): 'no-placement' without Pre-LN cells; 'no-warmup' without cells at
 *  warm-up 0 or at some W > 0; 'too-short' when the positive control, Pre-LN without warm-up at the
 *  smallest lr (the article's 1e-3 in the reference), does not train within the run, or when the
 *  run leaves no room after the warm-up for a warmed run to escape (W + that escape step > steps). */
export function preWarmup(doc, p = 'pre') {
  const points = phasePoints(doc, p);
  const warmups = unique(doc.cells.filter((c) => c.placement === p).map((c) => c.warmup));
  const W = warmups.length ? Math.max(...warmups) : null;
  const steps = doc.config?.steps ?? null;
  const rows = points.map(({ layers, lr }) => {
    const a = phaseCell(doc, p, 0, layers, lr),
      b = W ? phaseCell(doc, p, W, layers, lr) : null;
    const both = outcomeOf(a) === 'trained' && outcomeOf(b) === 'trained';
    return {
      layers,
      lr,
      out0: outcomeOf(a),
      outW: outcomeOf(b),
      delay: both ? pairedGap(a, b, escOf) : null,
      finalGap: both ? pairedGap(a, b, endLossOf) : null,
      esc0: meanOrNull((a?.runs ?? []).map(escOf).filter((e) => e != null)),
    };
  });
  const lrsWhere = (f) => rows.filter(f).map((r) => r.lr);
  const delays = rows.map((r) => r.delay).filter((x) => x != null);
  const gaps = rows.map((r) => r.finalGap).filter((x) => x != null);
  const first = rows[0] ?? null;
  const round = (x) => (x == null ? null : Math.round(x));
  const delayMax = maxOrNull(delays);
  // steps are whole: the delays and escape steps the sentences quote are rounded (the rule reads them exact)
  const facts = {
    W,
    steps,
    lrs: rows.map((r) => r.lr),
    out0: rows.map((r) => r.out0),
    outW: rows.map((r) => r.outW),
    delays: rows.map((r) => r.delay),
    lrsRescued: lrsWhere((r) => r.out0 != null && r.out0 !== 'trained' && r.outW === 'trained'),
    lrsHarmed: lrsWhere((r) => r.out0 === 'trained' && r.outW != null && r.outW !== 'trained'),
    lrsNeither: lrsWhere((r) => r.out0 != null && r.outW != null && r.out0 !== 'trained' && r.outW !== 'trained'),
    lrsBoth: lrsWhere((r) => r.out0 === 'trained' && r.outW === 'trained'),
    delayMean: round(meanOrNull(delays)),
    delayMax: round(delayMax),
    finalGapMax: maxOrNull(gaps),
    lrLo: first?.lr ?? null,
    esc0Lo: round(first?.esc0 ?? null),
  };
  if (!points.length) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-placement' } };
  if (!warmups.includes(0) || !(W > 0)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-warmup' } };
  if (first.out0 !== 'trained' || first.esc0 == null || W + first.esc0 > (steps ?? Infinity))
    return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  if (facts.lrsHarmed.length || delayMax > W || facts.finalGapMax > 0.1) return { verdict: 'refuted', facts };
  return { verdict: facts.lrsRescued.length ? 'qualified' : 'confirmed', facts };
}

/** Claim 10 (phase-diagram, DeepNorm beside Post-LN and Pre-LN, warm-up {0, W}): DeepNorm works in
 *  the same direction as Pre-LN's final LN. Its consequence in the toy: where Post-LN without
 *  warm-up fails (its majority outcome is not 'trained') and Pre-LN without warm-up trains, DeepNorm
 *  trains without warm-up too. Over those (depth, lr) points: confirmed when DeepNorm without
 *  warm-up trains at every one, qualified at some, refuted at none.
 *  Too small ('untested'): 'no-placement' when the document has no DeepNorm, Post-LN or Pre-LN
 *  cells; 'no-failure' when Post-LN without warm-up trains at every point (no failure for DeepNorm
 *  to remove); 'too-short' when Post-LN fails somewhere but Pre-LN without warm-up, the positive
 *  control, does not train at any of those points (the run is too short, or the lr too high, for a
 *  placement that removes the failure to show it).
 *  The facts carry, at the first point tested, each seed's escape step for DeepNorm and Pre-LN
 *  without warm-up and for DeepNorm and Post-LN with the longest warm-up W. */
export function deepNormNoWarmup(doc, dn = 'deepnorm', post = 'post', pre = 'pre') {
  const has = (p) => doc.cells.some((c) => c.placement === p);
  const warmups = unique(doc.cells.map((c) => c.warmup));
  const W = warmups.length ? Math.max(...warmups) : null;
  const rows = phasePoints(doc, post).map(({ layers, lr }) => ({
    layers,
    lr,
    post0: outcomeOf(phaseCell(doc, post, 0, layers, lr)),
    pre0: outcomeOf(phaseCell(doc, pre, 0, layers, lr)),
    dn0: outcomeOf(phaseCell(doc, dn, 0, layers, lr)),
    dnW: W ? outcomeOf(phaseCell(doc, dn, W, layers, lr)) : null,
    postW: W ? outcomeOf(phaseCell(doc, post, W, layers, lr)) : null,
  }));
  const failing = rows.filter((r) => r.post0 != null && r.post0 !== 'trained');
  const tested = failing.filter((r) => r.pre0 === 'trained');
  const at = tested[0] ?? null;
  const esc = (p, w) => (at ? seedEscapes(phaseCell(doc, p, w, at.layers, at.lr)) : []);
  const facts = {
    W,
    steps: doc.config?.steps ?? null,
    lrs: rows.map((r) => r.lr),
    post0: rows.map((r) => r.post0),
    pre0: rows.map((r) => r.pre0),
    dn0: rows.map((r) => r.dn0),
    dnW: rows.map((r) => r.dnW),
    postW: rows.map((r) => r.postW),
    lrsTested: tested.map((r) => r.lr),
    lrsDnTrains: tested.filter((r) => r.dn0 === 'trained').map((r) => r.lr),
    lrsDnFails: tested.filter((r) => r.dn0 !== 'trained').map((r) => r.lr),
    lrAt: at?.lr ?? null,
    layersAt: at?.layers ?? null,
    dnEsc0: esc(dn, 0),
    preEsc0: esc(pre, 0),
    postEsc0: esc(post, 0),
    dnEscW: W ? esc(dn, W) : [],
    postEscW: W ? esc(post, W) : [],
  };
  if (![dn, post, pre].every(has)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-placement' } };
  if (!failing.length) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-failure' } };
  if (!tested.length) return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  const n = facts.lrsDnTrains.length;
  return { verdict: n === tested.length ? 'confirmed' : n > 0 ? 'qualified' : 'refuted', facts };
}

/** Real text (real-text: the quick look's runs on the article's own bytes, one grid per language):
 *  does the Post-LN plateau, and warm-up's rescue, survive real text at the quick look's size? The
 *  quick look's criterion on each language (scripts/quick-look-search.mjs claims): a group escapes
 *  when the 10-step mean of its seed-mean training loss falls 0.5 below the plateau, here the
 *  training split's unigram entropy (the document's escape_step, null when never or when a seed
 *  stopped). Per language, with W the longest warm-up:
 *    stalls   Post-LN without warm-up has no escape step and every one of its seeds ran to the end
 *             (a run that diverged is no plateau);
 *    rescued  Post-LN with W escapes, and its seed-mean final validation loss (held-out text) is
 *             below the plateau too (what it learned is not the training windows alone);
 *    control  Pre-LN without warm-up escapes: a model that trains leaves the plateau within the run.
 *  A language holds when it stalls and is rescued, fails when not; it is too short to tell when
 *  the control fails, or when it stalls, the rescue fails and W leaves the run fewer steps than the
 *  control needed (W + Pre-LN's escape step > steps). Confirmed when every language holds; refuted
 *  when every language fails; qualified when some hold and the others fail or are too short;
 *  untested 'too-short' when every language is too short, 'no-placement' without Post-LN and
 *  Pre-LN runs, 'no-warmup' without runs at warm-up 0 and at some W > 0. */
export function realText(doc) {
  const groups = doc.groups ?? [];
  const langs = [...new Set(groups.map((g) => g.lang))];
  const warmups = unique(groups.map((g) => g.warmup));
  const W = warmups.length ? Math.max(...warmups) : null;
  const steps = doc.config?.steps ?? null;
  const seeds = doc.config?.seeds?.length ?? null;
  const group = (lang, p, w) => groups.find((g) => g.lang === lang && g.placement === p && g.warmup === w) ?? null;
  const perLang = langs.map((lang) => {
    const plateau = doc.texts?.find((t) => t.lang === lang)?.unigram_entropy ?? null;
    const post0 = group(lang, 'post', 0),
      postW = group(lang, 'post', W),
      pre0 = group(lang, 'pre', 0),
      preW = group(lang, 'pre', W);
    const esc = (g) => g?.escape_step ?? null;
    const stalls = post0 != null && esc(post0) == null && (seeds == null || post0.seeds_ok === seeds);
    const rescued = esc(postW) != null && postW.final_val != null && plateau != null && postW.final_val < plateau;
    const control = esc(pre0) != null;
    const outcome = !control ? 'too-short' : stalls && rescued ? 'holds' : stalls && W + esc(pre0) > (steps ?? Infinity) ? 'too-short' : 'fails';
    return {
      lang,
      plateau,
      escape: { post0: esc(post0), postW: esc(postW), pre0: esc(pre0), preW: esc(preW) },
      finalVal: { post0: post0?.final_val ?? null, postW: postW?.final_val ?? null, pre0: pre0?.final_val ?? null, preW: preW?.final_val ?? null },
      stalls,
      rescued,
      outcome,
    };
  });
  const of = (o) => perLang.filter((l) => l.outcome === o).map((l) => l.lang);
  const facts = { W, steps, langs, perLang, langsHold: of('holds'), langsFail: of('fails'), langsShort: of('too-short') };
  const has = (p) => groups.some((g) => g.placement === p);
  if (!has('post') || !has('pre')) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-placement' } };
  if (!warmups.includes(0) || !(W > 0)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-warmup' } };
  if (facts.langsShort.length === langs.length) return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  if (facts.langsHold.length === langs.length) return { verdict: 'confirmed', facts };
  return { verdict: facts.langsHold.length ? 'qualified' : 'refuted', facts };
}

/** lr-sensitivity's placement entry by name (undefined when absent). */
const lrsPlacement = (doc, p) => (doc?.placements ?? []).find((x) => x.placement === p);
/** The growth of a placement's largest attention logit: its largest over every lr and recorded step
 *  over its largest at init (step 1's forward pass); NaN without a logit at init. */
export function logitGrowth(entry) {
  const cells = entry?.cells ?? [];
  const peak = Math.max(0, ...cells.map((c) => c.max_logit ?? 0));
  const init = Math.max(0, ...cells.map((c) => c.logit_at_init ?? 0));
  return init > 0 ? peak / init : NaN;
}

/** Wortsman et al. 2023 (lr-sensitivity, Pre-LN with and without QK-norm over peak lrs): a
 *  LayerNorm on q and k lowers Pre-LN's LR sensitivity and keeps its attention logits bounded.
 *  The sensitivity S (engine: measure.h lr_sensitivity) is the mean over the lrs of the seeds'
 *  mean of min(final loss, ℓ₀) minus its best; a logit's growth is its largest over every lr and
 *  step over its largest at init (logitGrowth).
 *  Refuted when QK-norm does not lower S by at least a fifth (S_qk > 0.8·S_pre). Otherwise
 *  confirmed when QK-norm's logits stay bounded (growth < 2) while Pre-LN's grow (growth ≥ 2): the
 *  paper's mechanism shows at this scale; qualified when S is lower but the logits do not show it
 *  (QK-norm's grow 2× or more too, or Pre-LN's do not grow: facts.bounded and facts.grows say which).
 *  Too small ('untested'): 'no-placement' without both placements; 'lr-range' when the lrs span less
 *  than 100×; 'too-short' when no lr brings Pre-LN's capped loss 0.5 nats below its ℓ₀ (the escape
 *  margin: the runs are too short for any lr to train, so every curve is flat at ℓ₀ and S is 0 for
 *  a reason that is not stability); 'no-failure' when Pre-LN's own S is under a tenth of what it
 *  learns at its best lr (ℓ₀ − best): no lr in the range costs it, so there is nothing to lower. */
export function lrSensitivity(doc, base = 'pre', qk = 'qknorm') {
  const A = lrsPlacement(doc, base),
    B = lrsPlacement(doc, qk);
  const lrs = (A ?? B)?.cells?.map((c) => c.lr) ?? [];
  const curve = (e) => (e?.cells ?? []).map((c) => c.capped_loss);
  const stoppedAt = (e) => (e?.cells ?? []).filter((c) => c.stopped > 0).map((c) => c.lr);
  const facts = {
    lrs,
    lrSpan: lrs.length ? Math.max(...lrs) / Math.min(...lrs) : NaN,
    sPre: A?.sensitivity ?? null,
    sQk: B?.sensitivity ?? null,
    ratio: A && B ? ratio(B.sensitivity, A.sensitivity) : null,
    loss0Pre: A?.loss0 ?? null,
    loss0Qk: B?.loss0 ?? null,
    bestPre: A?.best_loss ?? null,
    bestQk: B?.best_loss ?? null,
    lrBestPre: A?.best_lr ?? null,
    lrBestQk: B?.best_lr ?? null,
    curvePre: curve(A),
    curveQk: curve(B),
    lrsStoppedPre: stoppedAt(A),
    lrsStoppedQk: stoppedAt(B),
    logitPre: A ? Math.max(0, ...A.cells.map((c) => c.max_logit ?? 0)) : null,
    logitQk: B ? Math.max(0, ...B.cells.map((c) => c.max_logit ?? 0)) : null,
    ratioGrowthPre: A ? logitGrowth(A) : null,
    ratioGrowthQk: B ? logitGrowth(B) : null,
  };
  if (!A || !B) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-placement' } };
  if (!(facts.lrSpan >= 100)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'lr-range' } };
  const learned = A.loss0 - A.best_loss;
  if (!(learned >= 0.5)) return { verdict: 'untested', facts: { ...facts, tooSmall: 'too-short' } };
  if (A.sensitivity < 0.1 * learned) return { verdict: 'untested', facts: { ...facts, tooSmall: 'no-failure' } };
  const lowers = B.sensitivity <= 0.8 * A.sensitivity;
  const bounded = facts.ratioGrowthQk < 2,
    grows = facts.ratioGrowthPre >= 2;
  const out = { ...facts, lowers, bounded, grows };
  if (!lowers) return { verdict: 'refuted', facts: out };
  return { verdict: bounded && grows ? 'confirmed' : 'qualified', facts: out };
}
