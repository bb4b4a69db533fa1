# ccache-env.sh — sourced by build-native.sh and build-wasm.sh: compile through ccache when it is
# installed (scripts/setup.sh installs it), so a second build of the same sources — another clone
# on the same machine, CI right after a session, a rebuild after `git clean` — reuses the objects
# instead of compiling them again (the engine's compiles are about 300 of the WebAssembly build's
# 420 CPU-seconds; the links are cached apart, by scripts/link-cache.sh). CCACHE_BASEDIR makes the cache key relative to the
# repository, so a clone in another folder hits it too. A cold cache only costs the first build
# its usual time. LNX_NO_CCACHE=1 compiles without it (e.g. to time a cold build).
#   Sets LNX_CMAKE_LAUNCHER (CMake arguments for a native configure) and, for Emscripten,
#   EM_COMPILER_WRAPPER (emcc then runs `ccache clang++ …` for each compile).
LNX_CMAKE_LAUNCHER=()
if [ -z "${LNX_NO_CCACHE:-}" ] && command -v ccache > /dev/null 2>&1; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(pwd -P)}"
  export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache}"
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-4G}"
  # the compile flags, not the folder, decide an object (no -g here, so no paths end up inside)
  export CCACHE_NOHASHDIR=1
  LNX_CMAKE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export EM_COMPILER_WRAPPER=ccache
else
  # an earlier configure may have recorded the launcher: clear it
  LNX_CMAKE_LAUNCHER=(-UCMAKE_CXX_COMPILER_LAUNCHER -UCMAKE_C_COMPILER_LAUNCHER)
  unset EM_COMPILER_WRAPPER
fi
