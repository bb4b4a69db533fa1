// check_impl.h — the members of gpu_check.h's Check<Impl>, for the files that define an Impl
// (gpu_check.cpp, op_check.cpp), which instantiate them there. An Impl has `kName` (for errors),
// `tickets` (the readbacks its construction scheduled) and result_json().
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "../config.h"
#include "device.h"
#include "gpu_check.h"

namespace lnx::gpu {

template <class Impl>
template <class... Args>
Check<Impl>::Check(const Args&... args) {
  check();
  impl_ = std::make_unique<Impl>(args...);
}

template <class Impl>
Check<Impl>::~Check() {
  for (uint32_t t : impl_->tickets) forget(t);
}

template <class Impl>
bool Check<Impl>::ready() {
  return landed(impl_->tickets);
}

template <class Impl>
std::string Check<Impl>::result_json() {
  if (!ready()) throw ArgumentError(std::string(Impl::kName) + ": results requested before they landed");
  return impl_->result_json();
}

}  // namespace lnx::gpu
