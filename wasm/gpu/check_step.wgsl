// check_step.wgsl — the stopping rule of a GPU training step (the CPU trainer's, train_common.h):
// sets the run's halt flag stats[flag] when this step's loss or gradient norm is not finite (tested
// on the bits: WGSL may assume finite math) or the loss is above the divergence limit. Every
// optimizer's update kernel (optimizer.wgsl) skips a halted run, so a stopped run stops moving, as
// the CPU trainer stops there.
struct Params { _p0: u32, flag: u32, loss_slot: u32, norm_slot: u32, limit: f32, _p1: u32, _p2: u32, _p3: u32 };

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(5) var<storage, read_write> stats: array<f32>;  // [flag] = halt; loss, norm slots

fn finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

@compute @workgroup_size(1)
fn check_step() {
  let loss = stats[P.loss_slot];
  if (!finite(loss) || !finite(stats[P.norm_slot]) || loss > P.limit) { stats[P.flag] = 1.0; }
}
