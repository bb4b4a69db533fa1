// schedule.h — the learning rate at step t, the input every optimizer update takes (optimizer.h).
// Over the warm-up, t = 1 … T_warmup, the rate rises to the peak along the run's warm-up shape; then
// it stays at the peak. t counts from 1, so step 1 never runs at 0 and step T_warmup is the peak.
//   linear (Xiong et al. 2020 eq. (1), Goyal et al. 2017): lr(t) = t/T_warmup · peak
//   cosine (a half-cosine ramp): lr(t) = ½(1 − cos(π·t/T_warmup)) · peak; below linear over the
//          first half of the warm-up, above it over the second, the same length
// Leaves out: decay after the warm-up (the toy runs are too short for it to matter).
#pragma once
#include <cmath>

#include "../config.h"

namespace lnx {

inline double scheduled_lr(const TrainConfig& c, int t) {
  constexpr double kPi = 3.14159265358979323846;
  if (c.warmup <= 0 || t > c.warmup) return c.lr;
  if (c.warmup_shape == WarmupShape::Cosine) return c.lr * 0.5 * (1.0 - std::cos(kPi * t / c.warmup));
  return c.lr * t / c.warmup;  // linear: the expression as it was before the shapes, so the same bits
}

}  // namespace lnx
