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

bool available();               // a device was given to the module and is not lost
void check();                   // throws DeviceError when lost / errored / absent
size_t max_buffer_bytes();
size_t max_binding_bytes();     // maxStorageBufferBindingSize
constexpr size_t kAlignBytes = 256;  // minStorageBufferOffsetAlignment (spec default and maximum)

// A device buffer of `bytes` (rounded up to 256), zero-initialised, freed on destruction.
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t bytes);
  ~Buffer();
  Buffer(Buffer&& o) noexcept : id_(o.id_), bytes_(o.bytes_) { o.id_ = 0, o.bytes_ = 0; }
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  uint32_t id() const { return id_; }
  size_t bytes() const { return bytes_; }
  void write(size_t byte_off, const void* src, size_t bytes) const;  // device memory, not the handle
 private:
  uint32_t id_ = 0;
  size_t bytes_ = 0;
};

// One binding of a dispatch: WGSL @binding(slot) = bytes [off, off + size) of buffer `buf`.
struct Binding {
  uint32_t slot, buf, off, size;
};

// Up to 16 words of uniforms, filled in the order of the WGSL struct.
struct Uniforms {
  uint32_t w[16] = {};
  int n = 0;
  Uniforms& u(uint32_t v) { w[n++] = v; return *this; }
  Uniforms& f(float v) { std::memcpy(&w[n++], &v, 4); return *this; }
};

// A kernel: an entry point of an embedded WGSL source with override constants (JSON, "{}" if none).
struct Kernel {
  const char* source;
  const char* entry;
  const char* constants;
};

void dispatch(const Kernel& k, std::initializer_list<Binding> bindings, const Uniforms& u, uint32_t gx,
              uint32_t gy = 1, uint32_t gz = 1);
// Workgroup grid for `groups` workgroups along one dimension, split as (x, y) when over 65535.
void dispatch_1d(const Kernel& k, std::initializer_list<Binding> bindings, const Uniforms& u, size_t groups);
void submit();

// Asynchronous readback: copies `bytes` of `buf` from `off` into host memory at `dst` once the GPU
// got there; poll with read_state (0 pending, 1 landed, -1 failed). `dst` must stay valid until the
// ticket lands or is forgotten.
uint32_t read(const Buffer& buf, size_t off, size_t bytes, void* dst);
int read_state(uint32_t ticket);
void forget(uint32_t ticket);
// True once every ticket has landed (each landed one is dropped from the list); throws
// DeviceError when one failed.
bool landed(std::vector<uint32_t>& tickets);

}  // namespace lnx::gpu
