// post.cpp — Post-LN, the original Transformer (Vaswani et al. 2017; Xiong et al. 2020, Fig. 1a):
// x ← LN(x + Attn(x)), then x ← LN(x + FFN(x)); no final LN. At initialization the gradient of the
// last layers' weights does not shrink with depth (Xiong et al. Theorem 1), which is why it needs
// warm-up.
#include "placement.h"

namespace lnx {

extern const Placement kPostLn = {
    "post",
    "Post-LN",
    "LayerNorm after each residual add: x <- LN(x + F(x)); no final LayerNorm",
    /*attention=*/{false, false, true},
    /*ffn=*/{false, false, true},
    /*final_norm=*/false,
};

}  // namespace lnx
