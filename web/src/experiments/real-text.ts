// real-text.ts — the `real-text` experiment (fig19, beside Figure 4's warm-up discussion): the quick
// look's toy runs on byte-level text of the page's own article (public/data/text/, one grid per
// language), judged by verdicts.js realText: does the Post-LN plateau, and warm-up's rescue, survive
// real text? The texts' lengths and hashes are in the document (texts[].parts).
import * as V from './verdicts.js';
import { list, nullable, num, obj, slots, str, type ExperimentDoc } from './types';

const shape = obj({
  texts: list(
    obj({
      lang: str,
      unigram_entropy: num,
      parts: list(obj({ lang: str, bytes: num, fnv1a64: str, train_bytes: num, held_out_bytes: num })),
    }),
  ),
  uniform_loss: num,
  runs: list(
    obj({
      lang: str,
      placement: str,
      warmup: num,
      seed: num,
      status: str,
      escape_step: nullable(num),
      loss: list(num),
      val_step: list(num),
      val_loss: list(num),
    }),
  ),
  groups: list(obj({ lang: str, placement: str, warmup: num, seeds_ok: num, escape_step: nullable(num), final_val: nullable(num) })),
});
export type RealTextResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    realText: RealTextResult;
  }
}

export default slots({
  // 32 runs at the quick look's size (about six minutes on two cores): a live run is the small
  // setting unless unticked, one seed (8 runs), the cheapest that gives the reference's verdict
  // (scripts/quick-settings-search.mjs; docs/reproduction.md).
  realText: {
    experiment: 'real-text',
    file: 'real-text',
    config: {},
    small: { seeds: [0] },
    settings: { url: 'fig19', fields: ['langs', 'placements', 'warmups', 'seeds', 'steps', 'layers', 'd'] },
    smallFirst: true,
    shape,
    verdict: V.realText,
  },
});
