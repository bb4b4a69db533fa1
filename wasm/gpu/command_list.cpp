// command_list.cpp — the dispatch list in wasm memory, the pipeline and bind-group caches and the
// uniform mirror; see command_list.h. The extern "C" functions are in lnx_webgpu.js.
#include "command_list.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
void lnx_gpu_list(void* header);
uint32_t lnx_gpu_pipeline(const char* src, const char* entry, const char* constants);
int lnx_gpu_bind_group(uint32_t id, uint32_t pipe, const void* bindings, int n, uint32_t slot);
void lnx_gpu_drop_groups(const uint32_t* ids, int n);
double lnx_gpu_limit(int which);
}

namespace lnx::gpu::cmdlist {
namespace {

constexpr uint32_t kSlots = 2048;                      // uniform slots = dispatches per submit at most
constexpr uint32_t kSlotBytes = 256;                   // minUniformBufferOffsetAlignment (spec default and maximum)
constexpr size_t kUniformBytes = sizeof(Uniforms::w);  // 16 words: every kernel's Params fits
constexpr int kMaxBindings = 9;
constexpr uint32_t kMergeGap = 16;    // changed slots this close are written as one range
constexpr size_t kMaxGroups = 50000;  // then every group is dropped and made again as needed
static_assert(kUniformBytes <= kSlotBytes, "a kernel's uniforms fit its slot");
static_assert(sizeof(Binding) == 16, "JS reads a binding as 4 words");

// Read and written by lnx_webgpu.js; the word order is fixed there (LnxGpu.H_*).
struct Header {
  uint32_t cmds;     // address of the commands: 5 words each (pipeline, bind group, gx, gy, gz)
  uint32_t count;    // commands recorded and not yet encoded (JS sets 0 when it encodes them)
  uint32_t uni;      // address of the uniform mirror: kSlots × kSlotBytes
  uint32_t slot;     // slots used since the last submit (JS sets 0 at a submit)
  uint32_t ranges;   // address of the changed slot ranges [lo, hi), in slot order
  uint32_t nranges;  // how many (JS writes them at the submit, then sets 0)
  uint32_t gen;      // the device's generation (JS: +1 whenever it attaches a device)
  uint32_t slots, slot_bytes;
};
struct Cmd {
  uint32_t pipe, group, gx, gy, gz;
};
struct PipeKey {
  const char *source, *entry, *constants;
  bool operator==(const PipeKey& o) const { return source == o.source && entry == o.entry && constants == o.constants; }
};
struct PipeHash {
  size_t operator()(const PipeKey& k) const {
    return std::hash<const void*>()(k.source) ^ (std::hash<const void*>()(k.entry) * 31) ^
           (std::hash<const void*>()(k.constants) * 1009);
  }
};
// A bind group: the pipeline (its layout), the uniform slot (binding 0) and the storage bindings.
struct GroupKey {
  uint32_t pipe = 0, slot = 0;
  int n = 0;
  Binding b[kMaxBindings] = {};
  bool operator==(const GroupKey& o) const {
    return pipe == o.pipe && slot == o.slot && n == o.n && std::memcmp(b, o.b, n * sizeof(Binding)) == 0;
  }
  bool uses(uint32_t buf) const {
    for (int i = 0; i < n; ++i)
      if (b[i].buf == buf) return true;
    return false;
  }
};
struct GroupHash {
  size_t operator()(const GroupKey& k) const {
    uint32_t h = 2166136261u;
    auto mix = [&h](uint32_t v) { h = (h ^ v) * 16777619u; };
    mix(k.pipe), mix(k.slot), mix(static_cast<uint32_t>(k.n));
    for (int i = 0; i < k.n; ++i) mix(k.b[i].slot), mix(k.b[i].buf), mix(k.b[i].off), mix(k.b[i].size);
    return h;
  }
};
// What a uniform slot held at its last use: the kernel and bindings (then its bind group), and
// whether the mirror's words are what the device's ring holds (or will, at the next submit).
struct SlotMemo {
  Kernel kernel{};
  GroupKey key;
  uint32_t group = 0;  // 0: none known
  bool uni_valid = false;
};

struct State {
  Header hdr{};
  std::unique_ptr<uint8_t[]> uni{new uint8_t[size_t(kSlots) * kSlotBytes]()};
  std::unique_ptr<Cmd[]> cmds{new Cmd[kSlots]};
  std::unique_ptr<uint32_t[]> ranges{new uint32_t[2 * kSlots]};
  std::unique_ptr<SlotMemo[]> memo{new SlotMemo[kSlots]};
  std::unordered_map<PipeKey, uint32_t, PipeHash> pipelines;
  std::unordered_map<GroupKey, uint32_t, GroupHash> groups;
  std::vector<uint32_t> free_groups;
  uint32_t next_group = 1;
  uint32_t gen = ~0u;
  size_t limits[2] = {0, 0};
};

uint32_t address(const void* p) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p)); }

// Forget everything made on an earlier device (JS dropped its objects when it attached the new one).
void reset(State& s) {
  s.pipelines.clear();
  s.groups.clear();
  s.free_groups.clear();
  s.next_group = 1;
  for (uint32_t i = 0; i < kSlots; ++i) s.memo[i] = SlotMemo{};
  s.limits[0] = s.limits[1] = 0;
  s.gen = s.hdr.gen;
}

State& state() {
  static State* s = nullptr;
  if (!s) {
    s = new State();
    s->hdr = {address(s->cmds.get()), 0, address(s->uni.get()), 0, address(s->ranges.get()), 0, 0, kSlots, kSlotBytes};
    lnx_gpu_list(&s->hdr);  // writes hdr.gen
  }
  if (s->hdr.gen != s->gen) reset(*s);
  return *s;
}

uint32_t pipeline(State& s, const Kernel& k) {
  const PipeKey key{k.source, k.entry, k.constants};
  auto it = s.pipelines.find(key);
  if (it != s.pipelines.end()) return it->second;
  const uint32_t id = lnx_gpu_pipeline(k.source, k.entry, k.constants);
  if (!id) throw DeviceError("could not create the pipeline of kernel " + std::string(k.entry));
  s.pipelines.emplace(key, id);
  return id;
}

void drop(State& s, std::vector<uint32_t>& ids) {
  if (ids.empty()) return;
  s.free_groups.insert(s.free_groups.end(), ids.begin(), ids.end());
  lnx_gpu_drop_groups(ids.data(), static_cast<int>(ids.size()));  // encodes what is recorded first
}

uint32_t group(State& s, const GroupKey& key, const char* entry) {
  auto it = s.groups.find(key);
  if (it != s.groups.end()) return it->second;
  if (s.groups.size() >= kMaxGroups) {
    std::vector<uint32_t> all;
    for (const auto& [k, id] : s.groups) all.push_back(id);
    s.groups.clear();
    for (uint32_t i = 0; i < kSlots; ++i) s.memo[i].group = 0;
    drop(s, all);
  }
  uint32_t id;
  if (s.free_groups.empty()) {
    id = s.next_group++;
  } else {
    id = s.free_groups.back();
    s.free_groups.pop_back();
  }
  if (!lnx_gpu_bind_group(id, key.pipe, key.b, key.n, key.slot))
    throw DeviceError("could not create a bind group for kernel " + std::string(entry));
  s.groups.emplace(key, id);
  return id;
}

// Slot `slot`'s words changed: written at the next submit, with its neighbours' when they are close.
void changed(State& s, uint32_t slot) {
  uint32_t& n = s.hdr.nranges;
  if (n && slot <= s.ranges[2 * n - 1] + kMergeGap) {
    s.ranges[2 * n - 1] = std::max(s.ranges[2 * n - 1], slot + 1);
  } else {
    s.ranges[2 * n] = slot;
    s.ranges[2 * n + 1] = slot + 1;
    ++n;
  }
}

}  // namespace

void record(const Kernel& k, const Binding* b, int n, const Uniforms& u, uint32_t gx, uint32_t gy, uint32_t gz) {
  if (n > kMaxBindings) throw std::logic_error("too many bindings");
  State& s = state();
  if (s.hdr.slot >= kSlots) {
    submit_now();  // the ring is full: what it holds is sent, and its slots start over
    if (s.hdr.slot >= kSlots) throw DeviceError("the GPU work could not be submitted");
  }
  const uint32_t slot = s.hdr.slot;
  SlotMemo& m = s.memo[slot];
  const bool same = m.group && m.kernel.source == k.source && m.kernel.entry == k.entry &&
                    m.kernel.constants == k.constants && m.key.n == n &&
                    std::memcmp(m.key.b, b, n * sizeof(Binding)) == 0;
  if (!same) {
    GroupKey key;
    key.pipe = pipeline(s, k);
    key.slot = slot;
    key.n = n;
    std::copy(b, b + n, key.b);
    const uint32_t g = group(s, key, k.entry);
    m.kernel = k, m.key = key, m.group = g;
  }
  uint8_t* words = s.uni.get() + size_t(slot) * kSlotBytes;
  if (!m.uni_valid || std::memcmp(words, u.w, kUniformBytes) != 0) {
    std::memcpy(words, u.w, kUniformBytes);
    m.uni_valid = true;
    changed(s, slot);
  }
  s.cmds[s.hdr.count++] = {m.key.pipe, m.group, gx, gy, gz};
  ++s.hdr.slot;
}

void forget_buffer(uint32_t id) {
  State& s = state();
  std::vector<uint32_t> dropped;
  for (auto it = s.groups.begin(); it != s.groups.end();) {
    if (it->first.uses(id)) {
      dropped.push_back(it->second);
      it = s.groups.erase(it);
    } else {
      ++it;
    }
  }
  for (uint32_t i = 0; i < kSlots; ++i)
    if (s.memo[i].group && s.memo[i].key.uses(id)) s.memo[i].group = 0;
  drop(s, dropped);
}

size_t limit(int which) {
  State& s = state();
  size_t& v = s.limits[which != 0];
  if (!v) v = static_cast<size_t>(lnx_gpu_limit(which != 0));
  return v;
}

}  // namespace lnx::gpu::cmdlist
