// device.cpp — the C++ side of the WebGPU boundary; see device.h. The extern "C" functions are
// implemented in lnx_webgpu.js (linked with --js-library); dispatches go through the list of
// command_list.h, which crosses into JavaScript once per submit.
#include "device.h"

#include "command_list.h"
#include "device_batch.h"

#include <algorithm>
#include <vector>

extern "C" {
int lnx_gpu_ready(void);
int lnx_gpu_status(char* buf, int len);
uint32_t lnx_gpu_create_buffer(uint32_t bytes);
void lnx_gpu_destroy_buffer(uint32_t id);
void lnx_gpu_write(uint32_t id, uint32_t off, const void* src, uint32_t bytes);
void lnx_gpu_write_ahead(uint32_t id, uint32_t off, const void* src, uint32_t bytes);
void lnx_gpu_submit(void);
uint32_t lnx_gpu_read(uint32_t id, uint32_t off, uint32_t bytes, void* dst);
int lnx_gpu_read_state(uint32_t ticket);
void lnx_gpu_forget(uint32_t ticket);
}

namespace lnx::gpu {

bool available() { return lnx_gpu_ready() != 0; }

void check() {
  char msg[512] = {};
  if (lnx_gpu_status(msg, sizeof msg) != 0) throw DeviceError(msg);
}

size_t max_buffer_bytes() { return cmdlist::limit(0); }
size_t max_binding_bytes() { return cmdlist::limit(1); }

namespace {
std::vector<int> g_refs;  // users per device buffer id
std::vector<Buffer> g_scratch(static_cast<size_t>(Scratch::Count));
}  // namespace

namespace devmem {
uint32_t create_counted(size_t bytes) {
  check();
  bytes = std::max<size_t>(kAlignBytes, (bytes + kAlignBytes - 1) / kAlignBytes * kAlignBytes);
  if (bytes > max_buffer_bytes())
    throw DeviceError("a GPU buffer of " + std::to_string(bytes >> 20) + " MiB is larger than this device allows (" +
                      std::to_string(max_buffer_bytes() >> 20) + " MiB maxBufferSize)");
  const uint32_t id = lnx_gpu_create_buffer(static_cast<uint32_t>(bytes));
  if (!id) throw DeviceError("could not create a GPU buffer of " + std::to_string(bytes) + " bytes");
  if (g_refs.size() <= id) g_refs.resize(id + 1, 0);
  g_refs[id] = 1;
  return id;
}
void retain(uint32_t id) { ++g_refs.at(id); }
void write_ahead(const Buffer& b, size_t byte_off, const void* src, size_t bytes) {
  if (b.runs() != 1 || byte_off + bytes > b.bytes() || bytes % 4 || byte_off % 4)
    throw std::logic_error("gpu write_ahead out of range");
  lnx_gpu_write_ahead(b.id(), static_cast<uint32_t>(byte_off), src, static_cast<uint32_t>(bytes));
}
void release(uint32_t id) {
  if (id && --g_refs.at(id) == 0) {
    write_staged();
    lnx_gpu_destroy_buffer(id);  // submits what is recorded first
    cmdlist::forget_buffer(id);
  }
}
}  // namespace devmem

Buffer::Buffer(size_t bytes) {
  bytes = std::max<size_t>(kAlignBytes, (bytes + kAlignBytes - 1) / kAlignBytes * kAlignBytes);
  if (RunBatch* b = RunBatch::recording()) {
    *this = b->allocate(bytes);
  } else {
    id_ = devmem::create_counted(bytes);
    bytes_ = bytes;
  }
}

Buffer Buffer::share(uint32_t id, size_t bytes, int run, int runs) {
  devmem::retain(id);
  Buffer b;
  b.id_ = id, b.bytes_ = bytes, b.run_ = run, b.runs_ = runs;
  return b;
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  devmem::release(id_);
  forget();
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    release();
    id_ = o.id_, bytes_ = o.bytes_, run_ = o.run_, runs_ = o.runs_;
    o.forget();
  }
  return *this;
}

void Buffer::write(size_t byte_off, const void* src, size_t bytes) const {
  if (byte_off + bytes > bytes_ || bytes % 4 || byte_off % 4) throw std::logic_error("gpu::Buffer::write out of range");
  if (!bytes) return;
  if (runs_ > 1) return devmem::scatter(*this, byte_off, src, bytes);
  devmem::write_staged();
  lnx_gpu_write(id_, static_cast<uint32_t>(byte_off), src, static_cast<uint32_t>(bytes));  // submits first
}

const Buffer& scratch_buffer(Scratch key, size_t bytes) {
  if (RunBatch* b = RunBatch::recording()) return b->scratch(key, bytes);
  Buffer& s = g_scratch[static_cast<size_t>(key)];
  if (s.bytes() < bytes) s = Buffer(bytes);
  return s;
}

void dispatch(const Kernel& k, const Binding* bindings, int n, const Uniforms& u, uint32_t gx, uint32_t gy,
              uint32_t gz) {
  if (gx == 0 || gy == 0 || gz == 0) return;
  if (n > 9) throw std::logic_error("too many bindings");
  for (int i = 0; i < n; ++i)
    if (bindings[i].off % kAlignBytes) throw std::logic_error(std::string("unaligned binding in kernel ") + k.entry);
  if (RunBatch* b = RunBatch::recording()) return b->record(k, bindings, n, u, gx, gy, gz);
  dispatch_now(k, bindings, n, u, gx, gy, gz);
}

void dispatch_now(const Kernel& k, const Binding* bindings, int n, const Uniforms& u, uint32_t gx, uint32_t gy,
                  uint32_t gz) {
  if (gx == 0 || gy == 0 || gz == 0) return;
  cmdlist::record(k, bindings, n, u, gx, gy, gz);
}

void dispatch(const Kernel& k, std::initializer_list<Binding> bindings, const Uniforms& u, uint32_t gx, uint32_t gy,
              uint32_t gz) {
  dispatch(k, bindings.begin(), static_cast<int>(bindings.size()), u, gx, gy, gz);
}

namespace {
// `groups` workgroups as an (x, y) grid with x ≤ 65535 (common.wgsl's flat_group undoes it).
void split_1d(size_t groups, uint32_t& gx, uint32_t& gy) {
  const size_t x = std::min<size_t>(groups, 65535);
  gx = static_cast<uint32_t>(x);
  gy = static_cast<uint32_t>((groups + x - 1) / x);
}
}  // namespace

void dispatch_1d(const Kernel& k, std::initializer_list<Binding> bindings, const Uniforms& u, size_t groups) {
  if (groups == 0) return;
  uint32_t gx, gy;
  split_1d(groups, gx, gy);
  dispatch(k, bindings, u, gx, gy);
}

void dispatch_now_1d(const Kernel& k, const Binding* bindings, int n, const Uniforms& u, size_t groups, uint32_t gz) {
  if (groups == 0) return;
  uint32_t gx, gy;
  split_1d(groups, gx, gy);
  dispatch_now(k, bindings, n, u, gx, gy, gz);
}

namespace {
int g_held = 0;  // HoldSubmits alive
}  // namespace
HoldSubmits::HoldSubmits() { ++g_held; }
HoldSubmits::~HoldSubmits() { --g_held; }

// While a batch records, its emit() submits once for the whole batched step.
void submit() {
  if (!RunBatch::recording() && !g_held) submit_now();
}
void submit_now() {
  devmem::write_staged();
  lnx_gpu_submit();
}

uint32_t read(const Buffer& buf, size_t off, size_t bytes, void* dst) {
  if (off + bytes > buf.bytes() || bytes % 4 || off % 4) throw std::logic_error("gpu::read out of range");
  // While a batch records, after the work it reads (emit() sends it): a batch of one run too, whose
  // buffers are plain (runs() == 1) but whose step is not sent yet.
  if (RunBatch* b = RunBatch::recording()) return b->defer_read(buf, off, bytes, dst);
  if (buf.runs() == 1) return read_raw(buf.id(), off, bytes, dst);
  return devmem::gather_read(buf.id(), buf.run(), buf.runs(), off, bytes, dst);
}
uint32_t read_raw(uint32_t id, size_t off, size_t bytes, void* dst) {
  return lnx_gpu_read(id, static_cast<uint32_t>(off), static_cast<uint32_t>(bytes), dst);
}
int read_state(uint32_t ticket) {
  return ticket & devmem::kDeferredTicket ? devmem::deferred_state(ticket) : lnx_gpu_read_state(ticket);
}
void forget(uint32_t ticket) {
  if (ticket & devmem::kDeferredTicket) devmem::deferred_forget(ticket);
  else lnx_gpu_forget(ticket);
}

bool landed(std::vector<uint32_t>& tickets) {
  while (!tickets.empty()) {
    const int s = read_state(tickets.back());
    if (s == 0) return false;
    if (s < 0) {
      check();
      throw DeviceError("a GPU readback failed");
    }
    tickets.pop_back();
  }
  return true;
}

}  // namespace lnx::gpu
