// rng.h — the engine's own random numbers: xoshiro256** seeded through SplitMix64, and a normal
// sampler (Marsaglia's polar method) built only on +, *, sqrt and log in double precision.
//
// Why not <random>: std::normal_distribution is implementation-defined, so libstdc++ (native) and
// libc++ (Emscripten) draw different numbers for the same seed. Everything here is integer
// arithmetic except sqrt (correctly rounded everywhere) and log (≤1 ulp apart between glibc and
// musl, invisible after the cast to float), so both builds draw the same model and the same batches.
#pragma once
#include <cmath>
#include <cstdint>

namespace lnx {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Derives independent stream seeds from (seed, purpose) so that, e.g., the model init and the batch
// sampler of one seed never share numbers, and adding a new stream never shifts an old one.
inline uint64_t stream_seed(uint64_t seed, uint64_t purpose) {
  uint64_t s = seed * 0x9e3779b97f4a7c15ULL ^ (purpose + 0x632be59bd9b4e019ULL);
  splitmix64(s);
  return splitmix64(s);
}

enum StreamPurpose : uint64_t { kStreamModel = 1, kStreamBatches = 2, kStreamChain = 3, kStreamOutput = 4 };

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(sm);
  }
  uint64_t next_u64() {  // xoshiro256** 1.0 (Blackman & Vigna)
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n), unbiased (Lemire's multiply-shift with rejection).
  uint32_t below(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(next_u64() >> 32)) * n;
    uint32_t low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(next_u64() >> 32)) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }
  // Standard normal, Marsaglia polar method; the second value of each pair is kept for the next call.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace lnx
