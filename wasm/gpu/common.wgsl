// common.wgsl — prepended to every kernel source (gpu/kernels.cpp). Only the flattening of dispatch
// grids: the host splits a long 1-D grid into (x, y) with x ≤ 65535 (the default per-dimension
// limit), and flat_group() gives the flat workgroup index back.
fn flat_group(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return wid.x + wid.y * nwg.x;
}
