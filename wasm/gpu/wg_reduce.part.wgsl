// wg_reduce.part.wgsl — the workgroup tree reduction, pasted where a kernel source has the line
// `#include "wg_reduce.part.wgsl"` (cmake/embed_wgsl.cmake; WGSL has no includes). The kernel
// declares `const WG` (the workgroup size of the entry points that call it, a power of two) and
// every thread of the workgroup calls it with its own partial value. Every thread gets the result.
var<workgroup> red: array<f32, WG>;

// The sum (is_max false) or the maximum (is_max true) of v over the WG threads of the workgroup:
// at strides WG/2, WG/4, …, 1, thread lid < s folds in thread lid + s.
fn wg_reduce(lid: u32, v: f32, is_max: bool) -> f32 {
  workgroupBarrier();
  red[lid] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s /= 2u) {
    if (lid < s) {
      if (is_max) { red[lid] = max(red[lid], red[lid + s]); } else { red[lid] += red[lid + s]; }
    }
    workgroupBarrier();
  }
  return red[0];
}

fn wg_sum(lid: u32, v: f32) -> f32 { return wg_reduce(lid, v, false); }
