// deepnorm.cpp — DeepNorm (Wang et al. 2022, "DeepNet", arXiv 2203.00555, encoder-only case):
// Post-LN with the residual up-weighted, x ← LN(α·x + F(x)) with α = (2L)^¼, and the value and FFN
// weights initialised β = (8L)^−¼ times smaller (Xavier-normal std × β). The model has no attention
// output projection, so β applies to Wv, W1 and W2. Both make each update's share of the stream
// shrink with depth, as Pre-LN's growing stream does.
#include "placement.h"

namespace lnx {

extern const Placement kDeepNorm = {
    "deepnorm",
    "DeepNorm",
    "Post-LN with x <- LN(alpha*x + F(x)), alpha = (2L)^(1/4), and value/FFN weights scaled by (8L)^(-1/4)",
    /*attention=*/{false, false, true},
    /*ffn=*/{false, false, true},
    /*final_norm=*/false,
    /*residual_scale=*/{ResidualScale::Kind::DeepNet},
    /*init_scale=*/{InitScale::Kind::DeepNet},
};

}  // namespace lnx
