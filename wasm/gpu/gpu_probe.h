// gpu_probe.h — the init-time probe of Figures 2 and 3 on the GPU: the jobs, batches and JSON of
// ProbeRun (probe.cpp, probe_common.h), with the model and the statistics on the device. Per batch
// the W² gradient is accumulated into a device buffer and its norm, like ‖h‖²/d of every layer's
// residual stream, is added into a small device stats buffer (reduce.wgsl); at the end of a job the
// Frobenius norm of the accumulated gradient joins them and those few floats are read back
// asynchronously. JS alternates `probe.step(k); await Module.lnxGpu.settled();`; done() turns true
// once every job's statistics have landed.
// Leaves out: running several jobs' models at once.
#pragma once
#include <memory>
#include <string>

#include "../config.h"

namespace lnx::gpu {

class GpuProbeRun {
 public:
  explicit GpuProbeRun(const ProbeConfig& cfg);
  ~GpuProbeRun();
  // Records up to `batches` forward/backward passes; returns the fraction recorded (< 1 until every
  // job's statistics have landed). Throws gpu::DeviceError when the device is gone.
  double step(int batches);
  bool done();
  double progress();
  std::string result_json();  // valid only when done()
  // The jobs whose statistics have landed, for the CPU's ProbeRun::continue_from (api.h); touches no
  // device, so it answers after the device is lost.
  std::string handoff_json() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lnx::gpu
