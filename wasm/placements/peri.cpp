// peri.cpp — Peri-LN (Kim et al. 2025, arXiv 2502.02732): a LayerNorm on each sublayer's input and
// another on its output before the residual add, x ← x + LN(F(LN(x))), and a final LN. Every
// branch then adds a unit-scale update to the stream, so the residual stream grows like Pre-LN's
// while no single update can dominate it.
#include "placement.h"

namespace lnx {

extern const Placement kPeriLn = {
    "peri",
    "Peri-LN",
    "LayerNorm on each sublayer's input and output: x <- x + LN(F(LN(x))); a final LayerNorm",
    /*attention=*/{true, true, false},
    /*ffn=*/{true, true, false},
    /*final_norm=*/true,
};

}  // namespace lnx
