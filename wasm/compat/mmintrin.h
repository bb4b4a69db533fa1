// wasm/compat/mmintrin.h — Emscripten ships no MMX header, but Eigen's SSE path includes
// <mmintrin.h>. Put wasm/compat first on the include path of the wasm build (-I wasm/compat);
// the SSE types Eigen needs all come from <xmmintrin.h>, which Emscripten maps to SIMD128.
#pragma once
#include <xmmintrin.h>
