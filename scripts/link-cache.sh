#!/usr/bin/env bash
# link-cache.sh — the WebAssembly build's link launcher (CMakeLists.txt: RULE_LAUNCH_LINK), the link's
# counterpart of ccache. With every object a ccache hit, a build of the same sources is still about
# 100 CPU-seconds, nearly all of it Binaryen's -O3 pass in each of the nine links (lnx-st alone:
# 9.7 s, of which wasm-opt 8.6 s). Linking the same objects with the same command gives the same
# files, so their outputs are kept under a key and copied back when the key comes again.
#
#   link-cache.sh SOURCE_DIR BINARY_DIR LINK COMMAND…   (run in the target's build folder, as make does)
#
# The key (SHA-256) covers: the link command with SOURCE_DIR and BINARY_DIR written as placeholders
# (so another clone hits it), the contents of every file the command names (objects, the objects
# listed in @response files, --js-library and --pre-js files), the versions of em++, wasm-opt and
# node, and this script. The outputs are the files next to the `-o` file whose name starts with its
# stem and a dot (lnx-st.mjs → lnx-st.mjs, lnx-st.wasm, lnx-st.worker.js) written by this link; they
# are copied (never linked: a POST_BUILD step may rewrite them in place), so the cache holds what
# the link wrote. A failing link stores nothing. LNX_NO_LINK_CACHE=1 links without it; the folder is
# LNX_LINK_CACHE_DIR, else the user's cache folder's lnx-link/ (beside ccache's), the newest 120
# entries kept.
set -euo pipefail
src=$1 bin=$2
shift 2
if [ -n "${LNX_NO_LINK_CACHE:-}" ]; then exec "$@"; fi

out="" prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
[ -n "$out" ] || exec "$@"
out_dir=$(dirname "$out")
stem=$(basename "$out")
stem=${stem%.*}

cache=${LNX_LINK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/lnx-link}
mkdir -p "$cache"

# Everything the key covers, one line each, then hashed.
describe() {
  printf 'script %s\n' "$(sha256sum < "${BASH_SOURCE[0]}" | cut -d' ' -f1)"
  printf 'em++ %s\n' "$("$1" --version 2> /dev/null | head -1)"
  printf 'wasm-opt %s\n' "$(wasm-opt --version 2> /dev/null | head -1 || true)"
  printf 'node %s\n' "$(node --version 2> /dev/null || true)"
  local a f
  for a in "$@"; do
    printf 'arg %s\n' "$(printf '%s' "$a" | sed -e "s|$bin|@BIN|g" -e "s|$src|@SRC|g")"
    f=$a
    case $a in @*) f=${a#@} ;; esac
    if [ -f "$f" ] && [ "$f" != "$1" ]; then
      printf 'file %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)"
      if [ "${a:0:1}" = "@" ]; then
        local o
        # a response file lists objects, one per line or separated by spaces
        for o in $(tr -d '"' < "$f"); do
          [ -f "$o" ] && printf 'listed %s %s\n' "$o" "$(sha256sum < "$o" | cut -d' ' -f1)"
        done
      fi
    fi
  done
}
key=$(describe "$@" | sha256sum | cut -c1-40)
entry=$cache/$key

if [ -f "$entry/.complete" ]; then
  for f in "$entry"/*; do
    cp -f "$f" "$out_dir/"
    touch "$out_dir/$(basename "$f")"
  done
  touch "$entry"
  echo "link-cache: $(basename "$out") from the cache ($key)"
  exit 0
fi

marker=$(mktemp "${TMPDIR:-/tmp}/link-cache.XXXXXX")
trap 'rm -f "$marker"' EXIT
"$@"
tmp=$(mktemp -d "$cache/.tmp.XXXXXX")
find "$out_dir" -maxdepth 1 -type f -name "$stem.*" -newer "$marker" -exec cp -f {} "$tmp/" \;
if [ -n "$(ls -A "$tmp")" ]; then
  touch "$tmp/.complete"
  rm -rf "$entry"
  mv "$tmp" "$entry" 2> /dev/null || rm -rf "$tmp"
else
  rm -rf "$tmp"
fi
# keep the newest 120 entries
ls -1dt "$cache"/*/ 2> /dev/null | tail -n +121 | xargs -r rm -rf
