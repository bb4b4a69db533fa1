// admin.cpp — Admin (Liu et al. 2020, "Understanding the Difficulty of Training Transformers"):
// Post-LN with the residual weighted, x ← LN(ω·x + F(x)). This is the closed form of admin-torch
// (`admin_torch.as_module(num_res_layers)`), not the profiled one: ω² = (N + 1)/ln(N + 1) − 1 with
// N = 2L, the number of residual sublayers, the same ω for every sublayer. Admin argues Post-LN's
// output change grows like O(N) and that ω brings it back to Pre-LN's O(log N).
#include "placement.h"

namespace lnx {

extern const Placement kAdmin = {
    "admin",
    "Admin",
    "Post-LN with x <- LN(omega*x + F(x)), omega^2 = (N+1)/ln(N+1) - 1, N = 2L sublayers (admin-torch's closed form)",
    /*attention=*/{false, false, true},
    /*ffn=*/{false, false, true},
    /*final_norm=*/false,
    /*residual_scale=*/{ResidualScale::Kind::Admin},
};

}  // namespace lnx
