#!/usr/bin/env bash
# Builds the peer black-hole-solver's C library for benchmarks/golf_solver.py, outside the
# repository. Nothing here is downloaded: give the sources (checkouts of
# shlomif/black-hole-solitaire, shlomif/rinutils and shlomif/shlomif-cmake-modules):
#
#   BHS_SOURCE=... RINUTILS_SOURCE=... CMAKE_MODULES_SOURCE=... \
#       benchmarks/setup_black_hole_solver.sh [BUILD_DIR]
#
# It needs cmake, perl with Path::Tiny and xxHash (Debian: cmake libpath-tiny-perl
# libxxhash-dev). It prints the library's path, to pass as BLACK_HOLE_SOLVER_LIB.
set -euo pipefail
: "${BHS_SOURCE:?the black-hole-solitaire checkout}"
: "${RINUTILS_SOURCE:?the rinutils checkout}"
: "${CMAKE_MODULES_SOURCE:?the shlomif-cmake-modules checkout}"
build=${1:-/tmp/black-hole-solver-build}
case "$(realpath -m "$build")" in
    "$(realpath "$(dirname "$0")/..")"*) echo "build outside the repository" >&2; exit 2 ;;
esac
rm -rf "$build"
mkdir -p "$build"
cp -r "$BHS_SOURCE/black-hole-solitaire/c-solver" "$build/src"
cp "$CMAKE_MODULES_SOURCE/shlomif-cmake-modules/Shlomif_Common.cmake" "$build/src/cmake/"
cp -r "$RINUTILS_SOURCE" "$build/src/rinutils"
cd "$build/src"
mkdir -p build
cd build
cmake .. -DUSE_SYSTEM_XXHASH=ON -DFCS_WITH_TEST_SUITE=OFF -DCMAKE_BUILD_TYPE=Release \
    -DDISABLE_EMBEDDED_PYTHON=ON >/dev/null
make -j"$(nproc)" black_hole_solver >/dev/null
echo "$build/src/build/libblack_hole_solver.so.1"
