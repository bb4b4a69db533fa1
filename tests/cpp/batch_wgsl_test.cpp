// batch_wgsl_test.cpp — the run-batched rewrite of a WGSL source (wasm/gpu/batch_wgsl.h) on small
// kernels written like wasm/gpu/*.wgsl: what each storage access, entry point and helper becomes,
// and the sources it refuses. That the rewritten kernels compile and compute each run's result bit
// for bit is checked on a device (tests/webgpu/engine-checks.js, "a batch of runs equals …").
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "gpu/batch_wgsl.h"

namespace {

using lnx::gpu::batched_wgsl;

const char* kKernel = R"(struct Params { n: u32, C: u32, _p0: u32, _p1: u32 };
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> x4: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;
var<workgroup> red: array<f32, 64>;

// out[i] in a comment stays as it is
fn helper(i: u32) -> f32 { return x4[i / 4u][i % 4u] * f32(P.C); }

@compute @workgroup_size(64)
fn entry(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = wid.x * 64u + lid.x;
  if (i >= P.n) { return; }
  red[lid.x] = 0.0;
  out[idx[i]] = helper(i) + red[0] + out [i];
}

@compute @workgroup_size(1)
fn bare() { out[0] = f32(P.n); }
)";

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
// The batched kernel b holds each of `parts`.
template <size_t N>
void expect_all(const std::string& b, const char* const (&parts)[N]) {
  for (const char* part : parts) EXPECT_TRUE(has(b, part)) << part << " is not in\n" << b;
}

TEST(BatchWgsl, StorageAccessesAreOffsetIntoTheRunsChunks) {
  const std::string b = batched_wgsl(kKernel);
  const char* const rewritten[] = {
      // nested accesses rewrite inside out; a space before '[' is still an access
      "out[lnx_at(u32(idx[lnx_at(u32(i), lnx_span, lnx_lane)]), lnx_span, lnx_lane)]",
      "out[lnx_at(u32(i), lnx_span, lnx_lane)]",
      // a vec4 array counts 16 elements per 64-float chunk; a helper reads the private copies
      "x4[lnx_at4(u32(i / 4u), lnx_span_p, lnx_lane_p)][i % 4u]",
      // workgroup arrays and comments are left alone
      "red[lid.x] = 0.0;",
  };
  expect_all(b, rewritten);
  EXPECT_FALSE(has(b, "in a comment")) << b;
}

TEST(BatchWgsl, TheUniformBecomesEachRunsOwn) {
  const std::string b = batched_wgsl(kKernel);
  EXPECT_FALSE(has(b, "var<uniform> P")) << b;
  const char* const uniforms[] = {
      "var<uniform> lnx_rs: lnx_Layout;",
      "@group(0) @binding(15) var<storage, read> lnx_pall: array<lnx_Pblk>;",
      "struct lnx_Pblk { @size(64) p: Params, };",
      "let P = lnx_pall[lnx_run].p;",  // in entries: a let (uniform)
      "f32(lnx_P.C)",                  // in helpers: the private copy
  };
  expect_all(b, uniforms);
}

TEST(BatchWgsl, EntryPointsTakeTheRunOutOfWorkgroupZ) {
  const char* const entries[] = {
      "@builtin(workgroup_id) lnx_wid: vec3<u32>",
      "@builtin(num_workgroups) lnx_nwg: vec3<u32>",
      "let lnx_run = lnx_wid.z / lnx_bz;",
      "let wid = vec3<u32>(lnx_wid.x, lnx_wid.y, lnx_wid.z % lnx_bz);",
      "let nwg = vec3<u32>(lnx_nwg.x, lnx_nwg.y, lnx_bz);",
      // an entry without a workgroup id gets one
      "fn bare(@builtin(workgroup_id) lnx_wid: vec3<u32>)",
  };
  expect_all(batched_wgsl(kKernel), entries);
}

TEST(BatchWgsl, RefusesWhatItDoesNotRecognise) {
  const std::string k = kKernel;
  EXPECT_THROW(batched_wgsl("@compute @workgroup_size(1)\nfn f() {}\n"), std::logic_error);  // no uniform
  std::string deep = k;
  deep.replace(deep.find("@workgroup_size(64)"), 19, "@workgroup_size(8, 4, 2)");
  EXPECT_THROW(batched_wgsl(deep), std::logic_error);  // global z would not rebase
  std::string high = k;
  high.replace(high.find("@binding(3)"), 11, "@binding(15)");
  EXPECT_THROW(batched_wgsl(high), std::logic_error);  // the per-run uniforms' binding
  EXPECT_THROW(batched_wgsl(k + "/* unterminated"), std::logic_error);
}

}  // namespace
