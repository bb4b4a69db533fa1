// pre.cpp — Pre-LN (Xiong et al. 2020, Fig. 1b): x ← x + Attn(LN(x)), then x ← x + FFN(LN(x)), and a
// final LN before the output. The residual stream grows like ‖x_l‖² ≈ (1 + l/2)·d (Lemma 2), so the
// final LN scales the gradient down by ≈ √d/‖x_L‖ (Lemma 3): the last layers' gradient falls like
// 1/√L (Theorem 1) and training works without warm-up.
#include "placement.h"

namespace lnx {

extern const Placement kPreLn = {
    "pre",
    "Pre-LN",
    "LayerNorm on each sublayer's input: x <- x + F(LN(x)); a final LayerNorm before the output",
    /*attention=*/{true, false, false},
    /*ffn=*/{true, false, false},
    /*final_norm=*/true,
};

}  // namespace lnx
