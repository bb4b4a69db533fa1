// schedule.h — the learning rate at step t, the input every optimizer update takes (optimizer.h).
// Linear warm-up (Xiong et al. 2020 eq. (1), Goyal et al. 2017): lr(t) = t/T_warmup · peak for
// t ≤ T_warmup, then the peak; t counts from 1, so step 1 runs at peak/T_warmup, never at 0.
// Leaves out: decay after the warm-up (the toy runs are too short for it to matter).
#pragma once
#include "../api.h"

namespace lnx {

inline double scheduled_lr(const TrainConfig& c, int t) {
  if (c.warmup > 0 && t <= c.warmup) return c.lr * t / c.warmup;
  return c.lr;
}

}  // namespace lnx
