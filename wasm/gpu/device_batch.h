// device_batch.h — the device layer of a batch (RunBatch): R runs of one shape advanced by the same
// dispatches (issue: dispatch overhead is paid once per grid step, not once per run). The runs are
// ordinary TrainRunner<GpuBackend>s; what changes is the device layer underneath them while a
// RunBatch records:
//   - every Buffer a run allocates is that run's part of a device buffer shared by the batch
//     (allocation i of every run in shared buffer i: the runs allocate alike, so they line up),
//     interleaved in 64-float chunks: run r's element e at (e / 64)·64·R + 64·r + e % 64. Why not
//     each run's slice after the other's: a kernel's bindings then span all R slices and two
//     writable bindings into one buffer (LayerNorm's output and its mean, say) overlap, which
//     WebGPU forbids. Interleaved, a binding of elements [a, b) (a is 64-aligned: the binding
//     alignment) is the physical range [a·R, ⌈b⌉₆₄·R), disjoint from any other disjoint binding's;
//   - every dispatch is recorded, not sent; emit() checks that dispatch i of every run is the same
//     kernel with the same bindings (only the uniforms may differ: a run's own learning rate and
//     step), then sends each once, for all R runs, in its batched form (batch_wgsl.h: workgroup z
//     carries the run, each run its own uniform words, of which only the blocks that changed since
//     the last emit are written), and then the readbacks asked for meanwhile;
//   - a run's writes and readbacks move its part through the interleaving (interleave.wgsl: a
//     scatter or gather dispatch next to a plain copy); the writes' data waits on the host and goes
//     to the device in one call before the next submit (devmem::write_staged); readbacks asked for
//     while recording wait for emit() (they must follow the work), their tickets answered here until then;
//     there, reads of the same elements by two or more runs are one plain copy of their interleaved
//     span, which each run takes its elements out of on the host (no gather dispatch).
// A run that has stopped (halted, or done while others go on) records nothing; its slot in a batched
// dispatch replays the first recording run's uniforms over its own slices, which changes nothing of
// it that is read (a halted run's update is skipped by its halt flag; its series are frozen). So
// runs of one batch must have the same steps (their histories the same size): gpu_train_batch.h
// checks it.
// Limits: a shared buffer holds R runs' parts, so R × (a run's largest buffer) must fit the device's
// maxBufferSize and maxStorageBufferBindingSize; the allocation that does not fit throws
// BatchTooLarge with the largest R that would, and the caller splits the batch (a batch of one that
// does not fit throws a plain DeviceError, as a GpuTrainRun would, and the page falls back to the CPU).
// Leaves out: batching the probe, runs of different shapes in one batch.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "device.h"

namespace lnx::gpu {

struct BatchTooLarge : DeviceError {
  BatchTooLarge(const std::string& what, int fits) : DeviceError(what), max_runs(fits) {}
  int max_runs;  // the most runs whose slices fit (≥ 1)
};

class RunBatch {
 public:
  explicit RunBatch(int runs);
  ~RunBatch();
  RunBatch(const RunBatch&) = delete;
  RunBatch& operator=(const RunBatch&) = delete;

  int runs() const { return runs_; }
  // Allocations, dispatches and readbacks from here on belong to `run` (0 ≤ run < runs) …
  void begin(int run);
  // … until end(); what was recorded stays captured for emit().
  void end();
  // begin(run) for its lifetime, end() when it goes (also when what it wraps throws).
  class Recording {
   public:
    Recording(RunBatch& b, int run) : b_(b) { b.begin(run); }
    ~Recording() { b_.end(); }
    Recording(const Recording&) = delete;
    Recording& operator=(const Recording&) = delete;

   private:
    RunBatch& b_;
  };
  // Sends the captured dispatches batched (throws std::logic_error when the runs' streams differ),
  // then the deferred readbacks. Returns the number of batched dispatches sent.
  int emit();

  // ---- the device layer's hooks (device.cpp), while this batch records ----
  static RunBatch* recording();
  Buffer allocate(size_t bytes);
  const Buffer& scratch(Scratch key, size_t bytes);
  void record(const Kernel& k, const Binding* b, int n, const Uniforms& u, uint32_t gx, uint32_t gy, uint32_t gz);
  uint32_t defer_read(const Buffer& b, size_t off, size_t bytes, void* dst);

 private:
  struct Stripe {
    uint32_t id;
    size_t bytes;  // per run
  };
  struct Recorded {
    Kernel kernel;
    Binding b[8];
    int n;
    Uniforms u;
    uint32_t gx, gy, gz;
  };
  Stripe new_stripe(size_t slice);

  int runs_;
  int run_ = -1;
  std::vector<size_t> next_alloc_;  // per run: its next allocation index
  std::vector<Stripe> stripes_;     // by allocation index
  std::vector<Stripe> scratch_stripes_;
  std::vector<std::vector<Buffer>> scratch_;     // [key][run]
  std::vector<std::vector<Recorded>> recorded_;  // [run]
  std::vector<size_t> shared_;                   // shared buffer id → bytes per run (0: not the batch's)
  size_t per_run(uint32_t id) const { return id < shared_.size() ? shared_[id] : 0; }
  Buffer params_;                // the batched dispatches' per-run uniforms
  std::vector<uint32_t> words_;  // what params_ holds (written where it changed)
  bool words_written_ = false;
};

namespace devmem {
// Deferred readback tickets (high bit set) until their batch emits them; device.cpp answers
// read_state / forget through these.
constexpr uint32_t kDeferredTicket = 0x80000000u;
int deferred_state(uint32_t ticket);
void deferred_forget(uint32_t ticket);
}  // namespace devmem

}  // namespace lnx::gpu
