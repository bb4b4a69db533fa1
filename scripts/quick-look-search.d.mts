// quick-look-search.d.mts — the type of what tests take from scripts/quick-look-search.mjs.
/** The three toy claims on a grid document with placements post, pre and warm-ups [0, w]. */
export function claims(grid: unknown): {
  escape_steps: { post0: number | null; postW: number | null; pre0: number | null; preW: number | null };
  post_without_warmup_stalls: boolean;
  post_with_warmup_escapes: boolean;
  pre_descends_either_way: boolean;
  all_hold: boolean;
};
