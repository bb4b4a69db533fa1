// op_interface.h — the op interface the model (model.h) is written against, and nothing else.
//
// A backend is a class with only static members. Two exist: CpuBackend<T> (cpu_backend.h, the free
// functions of wasm/ops/ over host memory, float or double) and gpu::GpuBackend (gpu/gpu_backend.h,
// WGSL kernels over GPU buffers, float only, WebAssembly only). The model never touches memory
// itself: every read or write of a parameter, gradient or activation goes through one of the ops
// below, so a GPU backend runs a whole pass without a round trip to the host.
//
// Types
//   Scalar        the element type (float or double)
//   Ptr, CPtr     a position in device memory; `p + k` advances by k elements; a default-constructed
//                 Ptr is "null" (an optional output not wanted) and converts to false
//   Array         owning storage of Scalar; data() → Ptr; size()
//   IntArray      owning storage of int (token ids); set(host, n) uploads
//   Loss          what cross_entropy_forward returns: double on the CPU (the loss itself), void on
//                 the GPU (the loss stays in a device buffer until the caller reads it back)
//   kAlign        every parameter tensor starts at a multiple of kAlign elements (1 on the CPU; the
//                 GPU needs 256-byte aligned storage-buffer bindings)
//
// Ops (outputs first, then inputs, then dimensions; shapes as in wasm/ops/*.h):
//   array(host vector) / zeros(n)                 → Array
//   gemm(tA, tB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)     (gemm.h semantics)
//   linear_forward / linear_backward              (ops/linear.h)
//   linear_forward_residual(out, res, inp, W, b, N, IC, OC)   out = res + inp·Wᵀ + b: res copied into
//                 out, the product added by the GEMM (β = 1), then b, in that order (a sublayer's sum)
//   linear_relu_forward(pre, h, inp, W, b, N, IC, OC)   pre = inp·Wᵀ + b, h = ReLU(pre) (an FFN's first half)
//   linear_backward_relu(d_pre, d_h, dW, db, dout, inp, W, pre, N, IC, OC)   linear_backward's dinp into d_h
//                 (overwritten), dW and db (+=), then d_pre = relu_backward(d_h, pre); a backend may skip d_h
//   add_row_vector(x, b, N, C)                    (ops/reduce.h)
//   relu_forward / relu_backward                  (ops/relu.h)
//   layernorm_forward / layernorm_backward        (ops/layernorm.h)
//   rmsnorm_forward / rmsnorm_backward            (ops/rmsnorm.h; LayerNorm without centring or β)
//   dyt_forward / dyt_backward                    (ops/dyt.h; γ·tanh(α·x) + β, α a one-element tensor)
//   gate_forward / gate_backward                  (ops/gate.h; s = x + g·f, g a one-element tensor)
//   attention_forward / attention_backward        (ops/attention.h)
//   cross_entropy_forward / cross_entropy_backward (ops/cross_entropy.h; targets are an IntArray)
//   embed_forward(x0, E, tokens, N, d, V, s)      x0 = s·E[tok]   (E is (V,d); the model's s is √d or 1)
//   embed_backward(dE, dx0, tokens, N, d, V, s)   dE[tok] += s·dx0, rows summed in token order
//   add(out, a, b, n), accumulate(dst, src, n) (dst += src), scale(dst, src, alpha, n) (dst = α·src),
//   copy(dst, src, n), zero(dst, n)
//
// Leaves out: the optimizer and the statistics of the probes; those are not part of the model and
// each backend provides them where they are used (trainer.cpp / probe.cpp; wasm/gpu/).
#pragma once
