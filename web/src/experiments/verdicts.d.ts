// verdicts.d.ts — types of verdicts.js (the rules are documented there).
export type Verdict = 'confirmed' | 'refuted' | 'qualified' | 'untested';
/** Why a setting is too small to test a claim (verdict 'untested'; verdicts.js lists them). */
export type TooSmall =
  | 'depth-range'
  | 'too-short'
  | 'no-gap'
  | 'no-failure'
  | 'no-stall'
  | 'no-sgd'
  | 'no-runs'
  | 'no-crossing'
  | 'no-warmup'
  | 'no-placement'
  | 'lr-range';
export interface Judged<F> {
  verdict: Verdict;
  /** `tooSmall` is set exactly when the verdict is 'untested' */
  facts: F & { tooSmall?: TooSmall };
}
/** The log–log slope a pure O(log L) growth has over `depths` (null with fewer than two depths ≥ 2). */
export function logGrowthSlope(depths: readonly number[]): number | null;
/** The depth trend between two near-best ranges [lo, hi] of η (step-size). */
export type EtaTrend = 'falls' | 'rises' | 'overlap';
export function etaTrend(shallow: readonly [number, number], deep: readonly [number, number]): EtaTrend;
/* eslint-disable @typescript-eslint/no-explicit-any */
export function afsByPlacement(doc: any, optimizer?: string): Record<string, any>;
export interface AfsGated {
  placement: string;
  optimizer: string;
  frozenShare: number;
  rms1: number;
  zeroStep1: number;
  ratioZeroStep2: number | null;
}
export function adamFirstStepCounterfactual(doc: any): Judged<{
  beta2: number;
  giExpected: number;
  gated: AfsGated[];
  gi: { placement: string; rms1: number; g1: number }[];
  giGap: number;
  gradGap: number;
  tiny: { placement: string; optimizer: string; name: string; gradRms: number; step1: number }[];
  gatedPlacement: string | null;
  frozenPct: number | null;
  ratioGatedRms1: number | null;
  zeroStep1: number | null;
  ratioZeroStep2: number | null;
  ratioGiRms1: number[];
  ratioGiExpected: number;
  ratioTinyStep1Max: number | null;
  ratioTinyGradMax: number | null;
  zeroHolds?: boolean;
  giHolds?: boolean;
}>;
export function adamFirstStep(
  doc: any,
  a?: string,
  b?: string,
): Judged<{
  rms1: number[];
  g1: number[];
  gradGap: number;
  stepGap: number;
  T: number;
  rmsT: number[];
  laterGap: number;
  minSteps: number;
}>;
export function stepSize(
  doc: any,
  post?: string,
  pre?: string,
): Judged<{
  depths: number[];
  r: number[];
  etaPre: number[];
  etaPost: number[];
  rFirst: number;
  rLast: number;
  depthRatio: number;
  nearPre: [number, number][];
  nearPost: [number, number][];
  usefulPre: (number | null)[];
  usefulPost: (number | null)[];
  trendPre: EtaTrend | null;
  stepsPre: EtaTrend[];
  stepsPost: EtaTrend[];
  depthFirst: number;
  depthLast: number;
  etaNearPreFirstLo: number;
  etaNearPreFirstHi: number;
  etaNearPreLastLo: number;
  etaNearPreLastHi: number;
  margin: number | null;
}>;
export function outputSensitivity(
  random: any,
  sign?: any,
): Judged<{
  post: number | null;
  pre: number | null;
  admin: number | null;
  deepnorm: number | null;
  peri: number | null;
  signPost: number | null;
  signPre: number | null;
  depths: number[] | null;
  lnSlope: number | null;
}>;
export function warmupLength(doc: any): Judged<{
  lr: number;
  postAdam: Record<string, number | null>;
  postRadam0: number | null;
  preAdam0: number | null;
  postSgd: Record<string, number | null>;
  firstWarmupThatEscapes: number | null;
  postAdam0: number | null;
  steps: number | null;
  radamWarmup: number;
  lrHi: number;
  postRadam0Hi: number | null;
  firstWarmupThatEscapesHi: number | null;
}>;
export function plateauShare(doc: any): Judged<{
  plateau: number;
  endLoss: number;
  status: string;
  share0: number;
  shareEnd: number;
  preEndLoss: number | null;
  others: { placement: string; warmup: number; shareEnd: number }[];
}>;
export function tiedOutput(
  doc: any,
  p?: string,
): Judged<{
  tiedSqrt: number;
  tiedNone: number;
  untiedSqrt: number;
  untiedNone: number;
  pCurrent: number[];
  depths: number[];
  uniform: number;
  depthRatio: number;
}>;
export function sgdControl(doc: any): Judged<{
  lr: number | null;
  post?: Record<string, number | null>;
  pre0: number | null;
  firstWarmupThatEscapes: number | null;
  post0: number | null;
  steps: number | null;
  preAdam0: number | null;
}>;
export function depthFactors(
  doc: any,
  p?: string,
): Judged<{
  L: number;
  r: number;
  rF: number;
  normFactor: number;
  residualFactor: number;
  factor: number;
  ffnNorm: number;
  ffnResidual: number;
  w2Min: number;
  w2Max: number;
}>;
/** The facts both sharpness rules give (verdicts.js sharpnessReadings): the window, and per placement
 *  the largest λ/threshold over it (max over seeds) and GI-Adam's step-1 reduction. */
export interface SharpnessFacts {
  window: number | null;
  measured: number;
  steps: number;
  placements: string[];
  ratioAdam0Post: number | null;
  ratioAdamWPost: number | null;
  ratioGi0Post: number | null;
  ratioAdam0Pre: number | null;
  ratioAdamWPre: number | null;
  ratioGi0Pre: number | null;
  ratioStep1Post: number | null;
  ratioStep1Pre: number | null;
  ratioAfterAdamWPost: number | null;
  ratioAfterAdamWPre: number | null;
  ratioAfterGi0Post: number | null;
  ratioAfterGi0Pre: number | null;
  ratioPlainAdam0Post: number | null;
  ratioPlainAdam0Pre: number | null;
  ratioPlainGi0Post: number | null;
  ratioPlainGi0Pre: number | null;
  unconverged: number;
  estimates: number;
  crossing: string[];
  nCrossing: number;
}
export function sharpnessWarmup(doc: any): Judged<SharpnessFacts & { kept: string[]; nKept: number }>;
export function sharpnessGiAdam(doc: any): Judged<SharpnessFacts & { giKept: string[]; nGiKept: number }>;
/** A phase-diagram cell's majority outcome ('mixed': no outcome has more than half the seeds). */
export type PhaseOutcome = 'trained' | 'plateau' | 'diverged' | 'mixed';
export function preWarmup(
  doc: any,
  p?: string,
): Judged<{
  W: number | null;
  steps: number | null;
  lrs: number[];
  out0: (PhaseOutcome | null)[];
  outW: (PhaseOutcome | null)[];
  delays: (number | null)[];
  lrsRescued: number[];
  lrsHarmed: number[];
  lrsNeither: number[];
  lrsBoth: number[];
  delayMean: number | null;
  delayMax: number | null;
  finalGapMax: number | null;
  lrLo: number | null;
  esc0Lo: number | null;
}>;
export function deepNormNoWarmup(
  doc: any,
  dn?: string,
  post?: string,
  pre?: string,
): Judged<{
  W: number | null;
  steps: number | null;
  lrs: number[];
  post0: (PhaseOutcome | null)[];
  pre0: (PhaseOutcome | null)[];
  dn0: (PhaseOutcome | null)[];
  dnW: (PhaseOutcome | null)[];
  postW: (PhaseOutcome | null)[];
  lrsTested: number[];
  lrsDnTrains: number[];
  lrsDnFails: number[];
  lrAt: number | null;
  layersAt: number | null;
  dnEsc0: (number | null)[];
  preEsc0: (number | null)[];
  postEsc0: (number | null)[];
  dnEscW: (number | null)[];
  postEscW: (number | null)[];
}>;
/** One language of realText's facts. */
export interface RealTextLang {
  lang: string;
  plateau: number | null;
  escape: { post0: number | null; postW: number | null; pre0: number | null; preW: number | null };
  finalVal: { post0: number | null; postW: number | null; pre0: number | null; preW: number | null };
  stalls: boolean;
  rescued: boolean;
  outcome: 'holds' | 'fails' | 'too-short';
}
export function realText(doc: any): Judged<{
  W: number | null;
  steps: number | null;
  langs: string[];
  perLang: RealTextLang[];
  langsHold: string[];
  langsFail: string[];
  langsShort: string[];
}>;
/** The growth of an lr-sensitivity placement's largest attention logit over its largest at init. */
export function logitGrowth(entry: any): number;
export function lrSensitivity(
  doc: any,
  base?: string,
  qk?: string,
): Judged<{
  lrs: number[];
  lrSpan: number;
  sPre: number | null;
  sQk: number | null;
  ratio: number | null;
  loss0Pre: number | null;
  loss0Qk: number | null;
  bestPre: number | null;
  bestQk: number | null;
  lrBestPre: number | null;
  lrBestQk: number | null;
  curvePre: number[];
  curveQk: number[];
  lrsStoppedPre: number[];
  lrsStoppedQk: number[];
  logitPre: number | null;
  logitQk: number | null;
  ratioGrowthPre: number | null;
  ratioGrowthQk: number | null;
  lowers?: boolean;
  bounded?: boolean;
  grows?: boolean;
}>;
