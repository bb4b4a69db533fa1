// model.cpp — the CPU instantiations of the model (model.h, model_impl.h): float for the probes and
// the trainer, double for the gradient checks. The GPU instantiation is in gpu/gpu_model.cpp.
#include "model_impl.h"

namespace lnx {

template struct ModelWorkspace<CpuBackend<float>>;
template struct ModelWorkspace<CpuBackend<double>>;
template class Model<CpuBackend<float>>;
template class Model<CpuBackend<double>>;

}  // namespace lnx
