#!/usr/bin/env bash
# Builds llama.cpp's own `llama-server` once into the cache, for bench/model.sh's second peer
# (bench/peer_llama_server.py). Bench-only: replay and scripts/setup never need it.
#
# The sources are the llama.cpp that libllama is built from: the vendor/llama.cpp of the
# llama-cpp-python sdist pinned in scripts/deps.env (LLAMA_CPP_PYTHON_VERSION), configured with
# the same LLAMA_CMAKE_ARGS (portable AVX2 kernels: a native build uses AMX instructions these
# machines advertise but refuse, and dies of SIGILL), the settings llama-cpp-python's own
# CMakeLists forces (shared libraries, the common library) and its build backend's Release build
# type; the build fails unless the result has libllama's machine code. On top only what
# the server needs: the tools tree, the server target, and no web UI (neither npm nor the
# prebuilt UI download from Hugging Face; the bench never opens a page) and no TLS. (No
# LLAMA_CURL=OFF: this llama.cpp has no curl and only warns that the option is gone.) Only the
# `llama-server` target and what it links are compiled: several minutes on 2 cores, once.
#
# Result: $cache/llama-server-$LLAMA_CPP_PYTHON_VERSION/bin/llama-server, with its own libllama
# and libggml beside it (RUNPATH $ORIGIN). Prints that path on stdout; progress goes to stderr.
#
# usage: bench/llama-server-build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC1091
. "$root/scripts/deps.env"
cache=${REPLAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/replay}
dest="$cache/llama-server-$LLAMA_CPP_PYTHON_VERSION"
if [ -x "$dest/bin/llama-server" ]; then
  printf '%s\n' "$dest/bin/llama-server"
  exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/.llama-server-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "bench/llama-server-build.sh: building llama-server from llama-cpp-python $LLAMA_CPP_PYTHON_VERSION's llama.cpp into $dest (once; several minutes)" >&2

# cmake: the PyPI package (as llama-cpp-python's own wheel build uses) when none is on PATH.
if command -v cmake >/dev/null 2>&1; then
  cmake=cmake
else
  python3 -c 'import cmake' 2>/dev/null || python3 -m pip install --quiet cmake >&2
  cmake="$(python3 -c 'import cmake; print(cmake.CMAKE_BIN_DIR)')/cmake"
fi

# The sdist, as bench/model.sh fetches it (its metadata step needs scikit-build-core in place).
python3 -c 'import scikit_build_core' 2>/dev/null || python3 -m pip install --quiet scikit-build-core >&2
python3 -m pip download --quiet --no-deps --no-binary :all: --no-build-isolation \
  "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$work/sdist" >&2
tar -xzf "$work/sdist/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" -C "$work" \
  "llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
src="$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"

# shellcheck disable=SC2086 # LLAMA_CMAKE_ARGS is a list of flags
"$cmake" -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release $LLAMA_CMAKE_ARGS \
  -DBUILD_SHARED_LIBS=ON -DLLAMA_BUILD_COMMON=ON \
  -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
  -DCMAKE_BUILD_RPATH_USE_ORIGIN=ON >"$work/configure.log" 2>&1 \
  || { tail -30 "$work/configure.log" >&2; exit 1; }
"$cmake" --build "$work/build" --target llama-server -j "$(nproc)" >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log" >&2; exit 1; }

mkdir -p "$work/out/bin"
cp -a "$work/build/bin/llama-server" "$work/build/bin/"lib*.so* "$work/out/bin/"
# Every library the server loads must come from beside it, not from libllama's own cache folder.
if LD_LIBRARY_PATH="" ldd "$work/out/bin/llama-server" | grep -E 'lib(llama|ggml|mtmd)' | grep -qv "$work/out/bin/"; then
  echo "bench/llama-server-build.sh: llama-server does not load its own libraries from beside it" >&2
  LD_LIBRARY_PATH="" ldd "$work/out/bin/llama-server" >&2
  exit 1
fi
"$work/out/bin/llama-server" --version >&2 2>&1 || { echo "bench/llama-server-build.sh: the built llama-server does not start" >&2; exit 1; }
# The same sources and flags must give the same kernels: the machine code of the server's libllama
# and libggml must be libllama's own (scripts/setup's build), instruction for instruction, once
# addresses and the embedded source paths are set aside (that build's libraries are stripped).
code() {  # LIBRARY SCRATCH_FILE
  strip -o "$2" "$1"
  objdump -d --no-show-raw-insn "$2" | tail -n +3 \
    | sed -E 's/^ *[0-9a-f]+:[[:space:]]*//; s/0x[0-9a-f]+/X/g; s/\b[0-9a-f]{4,}\b/A/g; s/<[^>]*>/<>/g'
}
libllama="$cache/llama.cpp-$LLAMA_CPP_PYTHON_VERSION/lib"
if [ -d "$libllama" ]; then
  for library in libggml-cpu.so libggml-base.so libggml.so libllama.so; do
    if ! cmp -s <(code "$libllama/$library" "$work/theirs.so") <(code "$work/out/bin/$library" "$work/ours.so"); then
      echo "bench/llama-server-build.sh: the server's $library has other machine code than $libllama/$library: not the same build" >&2
      exit 1
    fi
  done
  echo "bench/llama-server-build.sh: the server's libllama and libggml have libllama's machine code" >&2
fi
rm -rf "$dest"
mv "$work/out" "$dest"
printf '%s\n' "$dest/bin/llama-server"
