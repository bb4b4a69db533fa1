// device_batch.cpp — recording R runs' dispatches and sending them batched; see device_batch.h.
#include "device_batch.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "batch_wgsl.h"
#include "wgsl_sources.h"

namespace lnx::gpu {
namespace {

RunBatch* g_recording = nullptr;

// One plain read of a shared buffer's interleaved span that lands several runs' deferred reads of
// the same elements (a batched step's series, a checkpoint of every run): one copy and one mapping
// instead of a gather dispatch, a copy and a mapping per run. Each run takes its elements out on the
// host when it polls. The last reader to go forgets the device's ticket if it is still pending.
struct RawRead {
  uint32_t real = 0;          // the device's ticket while pending
  int state = 0;              // 0 pending, 1 landed, -1 failed
  std::vector<uint8_t> host;  // the span as the device holds it (the read's destination: never resized)
  RawRead() = default;
  RawRead(const RawRead&) = delete;
  RawRead& operator=(const RawRead&) = delete;
  ~RawRead() {
    if (real) forget(real);
  }
};

// Deferred readbacks: ticket → the request until emitted, then the device's ticket (or its share
// of a RawRead).
struct Deferred {
  uint32_t id;
  int run, runs;
  size_t off, bytes;
  void* dst;
  uint32_t real = 0;  // the device's ticket once emitted
  bool forgotten = false;
  std::shared_ptr<RawRead> raw;  // set instead of real when the read rides on a RawRead
};
std::map<uint32_t, Deferred> g_deferred;
std::vector<uint32_t> g_unsent;  // deferred tickets not yet emitted, in order
uint32_t g_next_deferred = 1;

// The batched form of a kernel source, made once per source (the pointer keys JS's pipeline cache).
const char* batched_source(const char* src) {
  static std::map<const char*, std::string> cache;
  auto it = cache.find(src);
  if (it == cache.end()) it = cache.emplace(src, batched_wgsl(src)).first;
  return it->second.c_str();
}

size_t round256(size_t n) { return (n + 255) / 256 * 256; }

// The interleaved physical range of a run's elements [first, first + n) and where `first` falls in
// it: the binding starts at first's chunk.
struct Span {
  Binding b;
  uint32_t first;
};
Span span(uint32_t slot, uint32_t id, int runs, size_t byte_off, size_t bytes) {
  const size_t e0 = byte_off / 4, chunk0 = e0 / 64 * 64, end = (byte_off + bytes) / 4;
  const size_t phys = ((end - chunk0 + 63) / 64) * 64 * 4 * runs;
  return {{slot, id, static_cast<uint32_t>(chunk0 * 4 * runs), static_cast<uint32_t>(phys)},
          static_cast<uint32_t>(e0 - chunk0)};
}

Buffer g_stage, g_gather;  // plain buffers for the transfers
// While a batch records, each run's write goes to its own region of g_stage from here on, kept in
// g_stage_host until something submits (devmem::write_staged: at the latest emit()'s submit), then
// written ahead of the recorded work in one call: no submit between the runs' writes, and one
// writeBuffer for all of them. emit() submits and starts over.
size_t g_stage_used = 0, g_stage_written = 0;  // regions [0, used) taken, [0, written) on the device
std::vector<uint8_t> g_stage_host;
// No batch records for its lifetime: a Buffer made meanwhile is a plain one, not the recording run's.
struct NotRecording {
  RunBatch* was = g_recording;
  NotRecording() { g_recording = nullptr; }
  ~NotRecording() { g_recording = was; }
};
Buffer& grown(Buffer& b, size_t bytes) {
  if (b.bytes() < bytes) {
    const NotRecording plain;
    b = Buffer(bytes);
  }
  return b;
}
// `entry` over `count` runs from `run` on (the source's run k at byte k·stride of src; count 1: one run).
void interleave_dispatch(const char* entry, Binding dst, Binding src, uint32_t n, int runs, int run, uint32_t first,
                         uint32_t count = 1, uint32_t stride = 0) {
  const Uniforms u =
      Uniforms().u(n).u(static_cast<uint32_t>(runs)).u(static_cast<uint32_t>(run)).u(first).u(stride / 4);
  const Binding b[2] = {dst, src};
  dispatch_now_1d(Kernel{wgsl::interleave, entry, "{}"}, b, 2, u, (n + 255) / 256, count);
}

// The runs' scatters while a batch records (devmem::scatter), held until emit() or anything else that
// records or replaces the staging buffer, then sent per span (the tensor written; spans of one step
// never overlap): its writes in order, each stretch of them by consecutive runs from evenly spaced
// stage regions as one dispatch. A batched step's runs each write the same spans (tokens, then
// targets) from regions one run's writes apart: one dispatch per span over all the runs (a step of 8
// runs: 16 dispatches → 2); a run halted in its batch splits the stretch there.
struct PendingScatter {
  const RunBatch* batch;
  Binding dst;
  uint32_t at, bytes, n;
  int runs, run;
  uint32_t first;
};
std::vector<PendingScatter> g_scatters;

void flush_scatters() {
  if (g_scatters.empty()) return;
  std::vector<PendingScatter> p;
  p.swap(g_scatters);
  const auto same_span = [](const PendingScatter& a, const PendingScatter& b) {
    return a.dst.buf == b.dst.buf && a.dst.off == b.dst.off && a.dst.size == b.dst.size && a.n == b.n &&
           a.first == b.first && a.runs == b.runs;
  };
  std::vector<uint8_t> sent(p.size(), 0);
  for (size_t i = 0; i < p.size(); ++i) {
    if (sent[i]) continue;
    std::vector<size_t> span_writes;  // this span's writes, in order
    for (size_t j = i; j < p.size(); ++j) {
      if (sent[j]) continue;
      const Binding &a = p[i].dst, &b = p[j].dst;
      if (same_span(p[i], p[j])) span_writes.push_back(j), sent[j] = 1;
      else if (a.buf == b.buf && a.off < b.off + b.size && b.off < a.off + a.size)
        throw std::logic_error("two scatters of one step to overlapping spans of a buffer");
    }
    for (size_t k = 0; k < span_writes.size();) {
      const PendingScatter& s = p[span_writes[k]];
      size_t end = k + 1;
      const uint32_t stride = end < span_writes.size() ? p[span_writes[end]].at - s.at : 0;
      while (end < span_writes.size() && stride > 0 && p[span_writes[end]].run == s.run + static_cast<int>(end - k) &&
             p[span_writes[end]].at == s.at + (end - k) * stride)
        ++end;
      const uint32_t count = static_cast<uint32_t>(end - k);
      interleave_dispatch(
          "scatter", s.dst,
          Binding{2, g_stage.id(), s.at, static_cast<uint32_t>((count - 1) * stride + round256(s.bytes))}, s.n, s.runs,
          s.run, s.first, count, count > 1 ? stride : 0);
      k = end;
    }
  }
}

}  // namespace

RunBatch::RunBatch(int runs) : runs_(runs), next_alloc_(runs, 0), recorded_(runs) {
  if (runs < 1) throw std::logic_error("RunBatch of no runs");
  scratch_.resize(static_cast<size_t>(Scratch::Count));
}

RunBatch::~RunBatch() {
  if (g_recording == this) g_recording = nullptr;
  g_scatters.erase(
      std::remove_if(g_scatters.begin(), g_scatters.end(), [this](const PendingScatter& s) { return s.batch == this; }),
      g_scatters.end());
  scratch_.clear();
  for (const Stripe& s : stripes_) devmem::release(s.id);
  for (const Stripe& s : scratch_stripes_) devmem::release(s.id);
}

RunBatch* RunBatch::recording() { return g_recording; }

void RunBatch::begin(int run) {
  if (run < 0 || run >= runs_) throw std::logic_error("RunBatch::begin: no such run");
  if (g_recording && g_recording != this) throw std::logic_error("two RunBatches recording at once");
  g_recording = this;
  run_ = run;
}

void RunBatch::end() {
  if (g_recording == this) g_recording = nullptr;
  run_ = -1;
}

RunBatch::Stripe RunBatch::new_stripe(size_t bytes) {
  const size_t limit = std::min(max_buffer_bytes(), max_binding_bytes());
  if (bytes * runs_ > limit) {
    // One run that does not fit is the device's limit, as for a GpuTrainRun: the page runs it on
    // the CPU. More runs: the caller splits the batch.
    if (runs_ == 1)
      throw DeviceError("a GPU buffer of " + std::to_string(bytes >> 20) + " MiB is larger than this device binds (" +
                        std::to_string(limit >> 20) + " MiB)");
    const int fits = static_cast<int>(std::max<size_t>(1, limit / bytes));
    throw BatchTooLarge("a batch of " + std::to_string(runs_) + " runs needs " + std::to_string(bytes * runs_ >> 20) +
                            " MiB in one buffer; this device binds at most " + std::to_string(limit >> 20) + " MiB",
                        fits);
  }
  Stripe s{devmem::create_counted(bytes * runs_), bytes};  // a device buffer of its own, not a run's part
  if (shared_.size() <= s.id) shared_.resize(s.id + 1, 0);
  shared_[s.id] = bytes;
  return s;
}

Buffer RunBatch::allocate(size_t bytes) {
  const size_t i = next_alloc_[run_]++;
  if (i == stripes_.size()) stripes_.push_back(new_stripe(bytes));
  const Stripe& s = stripes_[i];
  if (s.bytes != bytes)
    throw std::logic_error("the runs of a batch allocate differently (buffer " + std::to_string(i) + ": " +
                           std::to_string(bytes) + " bytes, not " + std::to_string(s.bytes) + ")");
  return Buffer::share(s.id, s.bytes, run_, runs_);
}

const Buffer& RunBatch::scratch(Scratch key, size_t bytes) {
  std::vector<Buffer>& per_run = scratch_[static_cast<size_t>(key)];
  if (per_run.empty()) {
    // One shared buffer per key, sized by the first request (a step asks for the same sizes every time).
    const Stripe s = new_stripe(round256(std::max<size_t>(bytes, 256)));
    scratch_stripes_.push_back(s);
    for (int r = 0; r < runs_; ++r) per_run.push_back(Buffer::share(s.id, s.bytes, r, runs_));
  }
  const Buffer& b = per_run[run_];
  if (b.bytes() < bytes) throw std::logic_error("a batched run's scratch grew during the batch");
  return b;
}

void RunBatch::record(const Kernel& k, const Binding* b, int n, const Uniforms& u, uint32_t gx, uint32_t gy,
                      uint32_t gz) {
  if (n > 8) throw std::logic_error("too many bindings for a batched dispatch");
  Recorded r{k, {}, n, u, gx, gy, gz};
  std::copy(b, b + n, r.b);
  recorded_[run_].push_back(r);
}

uint32_t RunBatch::defer_read(const Buffer& b, size_t off, size_t bytes, void* dst) {
  const uint32_t t = devmem::kDeferredTicket | g_next_deferred++;
  if (g_next_deferred >= devmem::kDeferredTicket) g_next_deferred = 1;
  g_deferred[t] = {b.id(), b.run(), b.runs(), off, bytes, dst};
  g_unsent.push_back(t);
  return t;
}

int RunBatch::emit() {
  if (g_recording == this) throw std::logic_error("RunBatch::emit while recording");
  flush_scatters();  // the runs' writes, before the step that reads them
  int t = -1;
  for (int r = 0; r < runs_ && t < 0; ++r)
    if (!recorded_[r].empty()) t = r;
  const std::vector<Recorded>* tmpl = t < 0 ? nullptr : &recorded_[t];
  const size_t D = tmpl ? tmpl->size() : 0;
  const size_t blk = round256(runs_ * kBatchParamsBytes);
  if (D) {
    // Check the streams agree and gather each run's uniform words into words_, noting the
    // dispatches whose words changed since the last emit: only those blocks are written.
    if (words_.size() != D * blk / 4) {
      words_.assign(D * blk / 4, 0);
      words_written_ = false;
    }
    std::vector<uint8_t> changed(D, words_written_ ? 0 : 1);
    for (int r = 0; r < runs_; ++r) {
      const auto& mine = recorded_[r].empty() ? *tmpl : recorded_[r];
      if (mine.size() != D)
        throw std::logic_error("the runs of a batch recorded " + std::to_string(mine.size()) + " and " +
                               std::to_string(D) + " dispatches");
      for (size_t i = 0; i < D; ++i) {
        const Recorded &a = (*tmpl)[i], &b = mine[i];
        bool same = a.kernel.source == b.kernel.source && a.kernel.entry == b.kernel.entry &&
                    a.kernel.constants == b.kernel.constants && a.gx == b.gx && a.gy == b.gy && a.gz == b.gz &&
                    a.n == b.n;
        for (int j = 0; same && j < a.n; ++j)
          same = per_run(a.b[j].buf) && a.b[j].slot == b.b[j].slot && a.b[j].buf == b.b[j].buf &&
                 a.b[j].off == b.b[j].off && a.b[j].size == b.b[j].size;
        if (!same)
          throw std::logic_error("the runs of a batch differ at dispatch " + std::to_string(i) + " (" + a.kernel.entry +
                                 ")");
        uint32_t* w = &words_[(i * blk + r * kBatchParamsBytes) / 4];
        if (std::memcmp(w, b.u.w, kBatchParamsBytes) != 0) {
          std::memcpy(w, b.u.w, kBatchParamsBytes);
          changed[i] = 1;
        }
      }
    }
    if (params_.bytes() < D * blk) {
      params_ = Buffer(D * blk);
      std::fill(changed.begin(), changed.end(), 1);
    }
    // Ahead of what is recorded (the runs' scatters, which never read params_): the dispatches that
    // read the previous words were submitted by the previous emit, so a plain write would only add
    // a submit of the scatters before this step's one. Runs of changed blocks closer than 16
    // dispatches are written together.
    for (size_t i = 0; i < D;) {
      if (!changed[i]) {
        ++i;
        continue;
      }
      size_t end = i + 1;
      for (size_t k = end; k < D && k < end + 16; ++k)
        if (changed[k]) end = k + 1;
      devmem::write_ahead(params_, i * blk, &words_[i * blk / 4], (end - i) * blk);
      i = end;
    }
    words_written_ = true;
    for (size_t i = 0; i < D; ++i) {
      const Recorded& a = (*tmpl)[i];
      if (size_t(a.gz) * runs_ > 65535) throw std::logic_error("a batched dispatch over 65535 workgroups in z");
      Binding b[9];
      for (int j = 0; j < a.n; ++j)
        b[j] = span(a.b[j].slot, a.b[j].buf, runs_, a.b[j].off,
                    std::min<size_t>(a.b[j].size, per_run(a.b[j].buf) - a.b[j].off))
                   .b;
      b[a.n] = {kBatchParamsBinding, params_.id(), static_cast<uint32_t>(i * blk),
                static_cast<uint32_t>(runs_ * kBatchParamsBytes)};
      const Uniforms layout = Uniforms().u(a.gz).u(static_cast<uint32_t>(runs_)).u(0).u(0);
      dispatch_now(Kernel{batched_source(a.kernel.source), a.kernel.entry, a.kernel.constants}, b, a.n + 1, layout,
                   a.gx, a.gy, a.gz * runs_);
    }
  }
  for (auto& r : recorded_) r.clear();
  // The readbacks asked for meanwhile, after the work they read. Reads of the same elements of one
  // shared buffer by two or more runs become one RawRead of their span; the others go alone.
  std::vector<Deferred*> sent;
  for (uint32_t ticket : g_unsent) {
    auto it = g_deferred.find(ticket);
    if (it == g_deferred.end()) continue;
    if (it->second.forgotten) {
      g_deferred.erase(it);
      continue;
    }
    sent.push_back(&it->second);
  }
  g_unsent.clear();
  for (size_t i = 0; i < sent.size(); ++i) {
    Deferred& d = *sent[i];
    if (d.real || d.raw) continue;  // already sent with an earlier one of its kind
    const auto alike = [&d](const Deferred* o) {
      return o->runs == d.runs && o->id == d.id && o->off == d.off && o->bytes == d.bytes && !o->real && !o->raw;
    };
    if (d.runs > 1 && std::count_if(sent.begin() + i + 1, sent.end(), alike) > 0) {
      const Span s = span(0, d.id, d.runs, d.off, d.bytes);
      auto raw = std::make_shared<RawRead>();
      raw->host.resize(s.b.size);
      raw->real = read_raw(d.id, s.b.off, s.b.size, raw->host.data());
      for (size_t j = i; j < sent.size(); ++j)
        if (j == i || alike(sent[j])) sent[j]->raw = raw;
      continue;
    }
    d.real = d.runs == 1 ? read_raw(d.id, d.off, d.bytes, d.dst)
                         : devmem::gather_read(d.id, d.run, d.runs, d.off, d.bytes, d.dst);
  }
  submit();                            // the batched step, once (the runs' staged writes first, in one call)
  g_stage_used = g_stage_written = 0;  // its scatters are submitted: the staging area is free again
  return static_cast<int>(D);
}

namespace devmem {
void write_staged() {
  if (g_stage_used <= g_stage_written) return;
  write_ahead(g_stage, g_stage_written, g_stage_host.data() + g_stage_written, g_stage_used - g_stage_written);
  g_stage_written = g_stage_used;
}

void scatter(const Buffer& dst, size_t byte_off, const void* src, size_t bytes) {
  size_t at = 0;
  if (RunBatch::recording()) {
    // A fresh region: the scatters recorded before it read the regions before it. A bigger buffer
    // replaces the old one (destroying that submits the work that reads it first, so the regions
    // kept on the host are written to it before).
    if (g_stage_used + round256(bytes) > g_stage.bytes()) {
      flush_scatters();  // they read the buffer about to be replaced
      write_staged();
      grown(g_stage, 2 * (g_stage_used + round256(bytes)));
      g_stage_used = g_stage_written = 0;
    }
    at = g_stage_used;
    g_stage_used += round256(bytes);
    if (g_stage_host.size() < g_stage_used) g_stage_host.resize(g_stage.bytes());
    std::memcpy(g_stage_host.data() + at, src, bytes);
  } else {
    flush_scatters();
    grown(g_stage, bytes).write(0, src, bytes);  // submits what is recorded first (staged regions before it)
    g_stage_used = g_stage_written = 0;
  }
  const Span s = span(1, dst.id(), dst.runs(), byte_off, bytes);
  if (RunBatch* b = RunBatch::recording()) {
    g_scatters.push_back({b, s.b, static_cast<uint32_t>(at), static_cast<uint32_t>(bytes),
                          static_cast<uint32_t>(bytes / 4), dst.runs(), dst.run(), s.first});
    return;
  }
  interleave_dispatch("scatter", s.b,
                      Binding{2, g_stage.id(), static_cast<uint32_t>(at), static_cast<uint32_t>(round256(bytes))},
                      static_cast<uint32_t>(bytes / 4), dst.runs(), dst.run(), s.first);
}

uint32_t gather_read(uint32_t id, int run, int runs, size_t byte_off, size_t bytes, void* dst) {
  flush_scatters();
  Buffer& out = grown(g_gather, bytes);
  const Span s = span(2, id, runs, byte_off, bytes);
  interleave_dispatch("gather", Binding{1, out.id(), 0, static_cast<uint32_t>(round256(bytes))}, s.b,
                      static_cast<uint32_t>(bytes / 4), runs, run, s.first);
  return read_raw(out.id(), 0, bytes, dst);
}

int deferred_state(uint32_t ticket) {
  auto it = g_deferred.find(ticket);
  if (it == g_deferred.end()) return -1;
  if (const std::shared_ptr<RawRead> raw = it->second.raw) {
    if (raw->state == 0) {
      raw->state = read_state(raw->real);  // a landed or failed ticket is released by this call
      if (raw->state != 0) raw->real = 0;
    }
    if (raw->state == 0) return 0;
    if (raw->state == 1) {
      // run r's element e of the span starting at element `first0` (64-aligned):
      // ((e - first0) / 64) · 64 · R + 64 · r + e % 64
      const Deferred& d = it->second;
      const size_t e0 = d.off / 4, first0 = e0 / 64 * 64, n = d.bytes / 4;
      const uint32_t* src = reinterpret_cast<const uint32_t*>(raw->host.data());
      uint32_t* dst = static_cast<uint32_t*>(d.dst);
      for (size_t k = 0; k < n; ++k) {
        const size_t e = e0 + k;
        dst[k] = src[(e - first0) / 64 * 64 * d.runs + 64 * d.run + e % 64];
      }
    }
    const int s = raw->state;
    g_deferred.erase(it);
    return s;
  }
  if (!it->second.real) return 0;
  const int s = read_state(it->second.real);
  if (s != 0) g_deferred.erase(it);
  return s;
}
void deferred_forget(uint32_t ticket) {
  auto it = g_deferred.find(ticket);
  if (it == g_deferred.end()) return;
  if (it->second.raw) {
    g_deferred.erase(it);  // the RawRead forgets the device's ticket when its last reader goes
  } else if (it->second.real) {
    forget(it->second.real);
    g_deferred.erase(it);
  } else {
    it->second.forgotten = true;  // dropped at emit
  }
}
}  // namespace devmem

}  // namespace lnx::gpu
