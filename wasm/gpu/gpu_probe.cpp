// gpu_probe.cpp — the init-time probe on the GPU; see gpu_probe.h. The run itself is
// detail::ProbeRunner (probe_run.h), the same code as the CPU's ProbeRun, over GpuBackend.
#include "gpu_probe.h"

#include "../probe_run.h"
#include "device.h"
#include "gpu_backend.h"

namespace lnx::gpu {

struct GpuProbeRun::Impl : detail::ProbeRunner<GpuBackend> {
  using ProbeRunner::ProbeRunner;
};

GpuProbeRun::GpuProbeRun(const ProbeConfig& cfg) {
  check();
  impl_ = std::make_unique<Impl>(cfg);
}
GpuProbeRun::~GpuProbeRun() = default;
double GpuProbeRun::step(int batches) {
  if (batches < 1) throw ArgumentError("step(batches): batches must be >= 1");
  check();
  return impl_->step(batches);
}
bool GpuProbeRun::done() { return impl_->done(); }
double GpuProbeRun::progress() { return impl_->progress(); }
std::string GpuProbeRun::result_json() { return impl_->result_json("webgpu"); }
std::string GpuProbeRun::handoff_json() const { return impl_->handoff_json(); }

}  // namespace lnx::gpu
