// stats.h — mean and sample standard deviation (n−1) over seeds, as the reference script reports
// (torch.std is unbiased). One value → std 0.
#pragma once
#include <cmath>
#include <vector>

namespace lnx {

struct MeanStd {
  double mean = 0, std = 0;
};

inline MeanStd mean_std(const std::vector<double>& xs) {
  MeanStd r;
  if (xs.empty()) return r;
  for (double x : xs) r.mean += x;
  r.mean /= static_cast<double>(xs.size());
  if (xs.size() > 1) {
    double ss = 0;
    for (double x : xs) ss += (x - r.mean) * (x - r.mean);
    r.std = std::sqrt(ss / static_cast<double>(xs.size() - 1));
  }
  return r;
}

}  // namespace lnx
