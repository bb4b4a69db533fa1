// markov.h — the toy data of Figure 4: an order-1 Markov chain over V tokens in which every token has
// `successors` distinct successors, each with probability 1/successors (drawn from the chain's own
// seed). The best achievable loss is ln(successors); a model that ignores context and only learns
// the token frequencies sits at the entropy of the chain's stationary distribution (the plateau).
#pragma once
#include <cmath>
#include <vector>

#include "rng.h"

namespace lnx {

class MarkovChain {
 public:
  MarkovChain(int vocab, int successors, uint64_t seed)
      : V_(vocab), K_(successors), next_(static_cast<size_t>(vocab) * successors) {
    Rng rng(stream_seed(seed, kStreamChain));
    for (int t = 0; t < V_; ++t) {
      int* row = &next_[static_cast<size_t>(t) * K_];
      for (int k = 0; k < K_; ++k) {
        int cand;
        bool dup;
        do {  // distinct successors: redraw duplicates
          cand = static_cast<int>(rng.below(static_cast<uint32_t>(V_)));
          dup = false;
          for (int j = 0; j < k; ++j) dup |= row[j] == cand;
        } while (dup);
        row[k] = cand;
      }
    }
  }

  int vocab() const { return V_; }
  int successors() const { return K_; }
  int successor(int token, int k) const { return next_[static_cast<size_t>(token) * K_ + k]; }

  // Fills B walks of n+1 tokens: inputs walk[0..n−1], targets walk[1..n]; the start is uniform.
  void sample(Rng& rng, int B, int n, std::vector<int>& inputs, std::vector<int>& targets) const {
    inputs.resize(static_cast<size_t>(B) * n);
    targets.resize(static_cast<size_t>(B) * n);
    for (int b = 0; b < B; ++b) {
      int t = static_cast<int>(rng.below(static_cast<uint32_t>(V_)));
      for (int i = 0; i < n; ++i) {
        const int nxt = successor(t, static_cast<int>(rng.below(static_cast<uint32_t>(K_))));
        inputs[static_cast<size_t>(b) * n + i] = t;
        targets[static_cast<size_t>(b) * n + i] = nxt;
        t = nxt;
      }
    }
  }

  // Entropy (nats) of the stationary distribution π, by power iteration on the lazy chain
  // (I + P)/2, which has the same π and is aperiodic, so the iteration converges.
  double stationary_entropy() const {
    std::vector<double> p(V_, 1.0 / V_), q(V_);
    for (int it = 0; it < 100000; ++it) {
      for (int t = 0; t < V_; ++t) q[t] = 0.5 * p[t];
      for (int t = 0; t < V_; ++t)
        for (int k = 0; k < K_; ++k) q[successor(t, k)] += 0.5 * p[t] / K_;
      double diff = 0;
      for (int t = 0; t < V_; ++t) diff += std::fabs(q[t] - p[t]);
      p.swap(q);
      if (diff < 1e-13) break;
    }
    double h = 0;
    for (double x : p)
      if (x > 0) h -= x * std::log(x);
    return h;
  }

 private:
  int V_, K_;
  std::vector<int> next_;
};

}  // namespace lnx
