// gpu_model.cpp — the GPU instantiation of the model: the same model_impl.h as the CPU, over
// gpu::GpuBackend.
#include "../model_impl.h"
#include "gpu_backend.h"

namespace lnx {

template struct ModelWorkspace<gpu::GpuBackend>;
template class Model<gpu::GpuBackend>;

}  // namespace lnx
