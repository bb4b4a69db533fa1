// device.h — the C++ side of the WebGPU boundary (lnx_webgpu.js): buffers with RAII, pipelines,
// dispatches with bindings and uniforms, submits, asynchronous readbacks polled by ticket, and the
// device's status (lost, error) turned into exceptions.
// Leaves out: what any kernel computes (kernels.h), the model (gpu_backend.h).
#pragma once
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace lnx::gpu {

// Thrown when the device is gone or reported an error; the message says which. The page falls back
// to the CPU on it (web/src/engine/backend-choice.ts).
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool available();  // a device was given to the module and is not lost
void check();      // throws DeviceError when lost / errored / absent
size_t max_buffer_bytes();
size_t max_binding_bytes();          // maxStorageBufferBindingSize
constexpr size_t kAlignBytes = 256;  // minStorageBufferOffsetAlignment (spec default and maximum)

// A device buffer of `bytes` (rounded up to 256), zero-initialised, freed on destruction. While a
// RunBatch records run r (device_batch.h), a new Buffer is run r's part of a device buffer shared by
// the batch's R runs, interleaved in 64-float chunks (device_batch.h says why); write() and read()
// go through that layout, and the last user of the device buffer frees it.
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t bytes);
  ~Buffer();
  Buffer(Buffer&& o) noexcept : id_(o.id_), bytes_(o.bytes_), run_(o.run_), runs_(o.runs_) { o.forget(); }
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  // A further user of run `run`'s part (`bytes` of it) of device buffer `id`, shared by `runs` runs.
  static Buffer share(uint32_t id, size_t bytes, int run, int runs);
  uint32_t id() const { return id_; }
  size_t bytes() const { return bytes_; }
  int run() const { return run_; }
  int runs() const { return runs_; }                                 // 1: an ordinary buffer
  void write(size_t byte_off, const void* src, size_t bytes) const;  // device memory, not the handle
 private:
  void release();
  void forget() { id_ = 0, bytes_ = 0, run_ = 0, runs_ = 1; }
  uint32_t id_ = 0;
  size_t bytes_ = 0;
  int run_ = 0, runs_ = 1;
};

// Grow-only scratch for a composite op's intermediates (attention scores, row losses, reduction
// partials), one per key: while a RunBatch records, the recording run's own.
enum class Scratch { Scores, RowLoss, Partials, Unbound, Count };  // Unbound: a binding a kernel leaves alone
const Buffer& scratch_buffer(Scratch key, size_t bytes);

// One binding of a dispatch: WGSL @binding(slot) = bytes [off, off + size) of buffer `buf`.
struct Binding {
  uint32_t slot, buf, off, size;
};

// Up to 16 words of uniforms, filled in the order of the WGSL struct.
struct Uniforms {
  uint32_t w[16] = {};
  int n = 0;
  Uniforms& u(uint32_t v) {
    w[n++] = v;
    return *this;
  }
  Uniforms& f(float v) {
    std::memcpy(&w[n++], &v, 4);
    return *this;
  }
};

// A kernel: an entry point of an embedded WGSL source with override constants (JSON, "{}" if none).
struct Kernel {
  const char* source;
  const char* entry;
  const char* constants;
};

void dispatch(const Kernel& k, std::initializer_list<Binding> bindings, const Uniforms& u, uint32_t gx, uint32_t gy = 1,
              uint32_t gz = 1);
void dispatch(const Kernel& k, const Binding* bindings, int n, const Uniforms& u, uint32_t gx, uint32_t gy,
              uint32_t gz);
// Sent now even while a RunBatch records (the batch's own transfers and batched dispatches).
void dispatch_now(const Kernel& k, const Binding* bindings, int n, const Uniforms& u, uint32_t gx, uint32_t gy,
                  uint32_t gz);
// Workgroup grid for `groups` workgroups along one dimension, split as (x, y) when over 65535.
void dispatch_1d(const Kernel& k, std::initializer_list<Binding> bindings, const Uniforms& u, size_t groups);
void dispatch_now_1d(const Kernel& k, const Binding* bindings, int n, const Uniforms& u, size_t groups,
                     uint32_t gz = 1);
void submit();
void submit_now();  // also while a RunBatch records (command_list.cpp: the uniform ring is full)
// submit() does nothing for its lifetime (the work waits for the holder's submit_now(), or for
// whatever else submits): a run's last step of a call and its readback go in one submit.
class HoldSubmits {
 public:
  HoldSubmits();
  ~HoldSubmits();
  HoldSubmits(const HoldSubmits&) = delete;
  HoldSubmits& operator=(const HoldSubmits&) = delete;
};

// Asynchronous readback: copies `bytes` of `buf` from `off` into host memory at `dst` once the GPU
// got there; poll with read_state (0 pending, 1 landed, -1 failed). `dst` must stay valid until the
// ticket lands or is forgotten.
uint32_t read(const Buffer& buf, size_t off, size_t bytes, void* dst);
uint32_t read_raw(uint32_t id, size_t byte_off, size_t bytes, void* dst);  // a device buffer, no batch
int read_state(uint32_t ticket);
void forget(uint32_t ticket);
// True once every ticket has landed (each landed one is dropped from the list); throws
// DeviceError when one failed.
bool landed(std::vector<uint32_t>& tickets);

namespace devmem {
// Device buffers counted by their users (Buffers, a RunBatch's slices): create_counted gives a
// buffer of `bytes` (rounded up to 256) held once; release frees it when the count reaches 0.
uint32_t create_counted(size_t bytes);
void retain(uint32_t id);
void release(uint32_t id);
// A write into an ordinary buffer without submitting the recorded work first (queue.writeBuffer
// runs before unsubmitted commands): only for bytes no recorded, unsubmitted command uses.
void write_ahead(const Buffer& b, size_t byte_off, const void* src, size_t bytes);
// Transfers of a batched run's part of a shared buffer (device_batch.cpp; interleave.wgsl).
void scatter(const Buffer& dst, size_t byte_off, const void* src, size_t bytes);
// The scatters' source data a recording batch keeps on the host, written to the device (ahead of
// the recorded work) before anything submits it: every submit goes through here first.
void write_staged();
uint32_t gather_read(uint32_t id, int run, int runs, size_t byte_off, size_t bytes, void* dst);
}  // namespace devmem

}  // namespace lnx::gpu
