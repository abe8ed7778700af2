#!/usr/bin/env bash
# The fallback build for a GPU machine without gpuplan's build dependencies: the CUDA module with
# nvcc and the calibration driver gpuplan-calibrate with cc, from the project's own sources, with
# no cmake, libcurl, SQLite, cJSON or GSL. Writes OUTDIR/libgpuplan-cuda.so (when nvcc is there)
# and OUTDIR/gpuplan-calibrate; run the driver with GPUPLAN_BACKEND_DIR=OUTDIR.
# Usage: scripts/gpu-fallback-build.sh OUTDIR
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?usage: gpu-fallback-build.sh OUTDIR}
mkdir -p "$out"
cc=${CC:-$(command -v cc || command -v gcc || command -v clang)}
nvcc=$(command -v nvcc || { [[ -x /usr/local/cuda/bin/nvcc ]] && echo /usr/local/cuda/bin/nvcc; } || true)

if [[ -n "$nvcc" ]]; then
  cuda=$(cd "$(dirname "$nvcc")/.." && pwd)
  version=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
  # As kernels/cuda/CMakeLists.txt: sm_100 from CUDA 12.8, sm_90 from 11.8.
  arch=(-gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80)
  if [[ "$(printf '%s\n' 11.8 "$version" | sort -V | head -n 1)" == 11.8 ]]; then
    arch=(-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90)
  fi
  if [[ "$(printf '%s\n' 12.8 "$version" | sort -V | head -n 1)" == 12.8 ]]; then
    arch=(-gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100
          -gencode arch=compute_100,code=compute_100)
  fi
  lt=()
  if compgen -G "$cuda/lib64/libcublasLt.so*" >/dev/null; then
    lt=(-DGP_HAVE_CUBLASLT=1 -lcublasLt)
  else
    echo "gpu-fallback-build: no libcublasLt in $cuda/lib64: the module runs its own GEMM kernel only"
  fi
  echo "gpu-fallback-build: CUDA $version ($nvcc): ${arch[*]}"
  "$nvcc" -std=c++17 -O2 -shared -Xcompiler=-fPIC,-fvisibility=hidden,-Wall,-Wextra \
    -cudart static "${arch[@]}" -I"$root" -I"$root/include" "${lt[@]:0:1}" \
    -o "$out/libgpuplan-cuda.so" "$root/kernels/cuda/gpu_backend.cu" -L"$cuda/lib64" \
    "${lt[@]:1}" -ldl -Xlinker -rpath="$cuda/lib64"
else
  echo "gpu-fallback-build: no nvcc: building the driver only"
fi

src=(calibrate/fallback_main.c calibrate/registry.c calibrate/runner.c calibrate/schedule.c
     calibrate/stats.c calibrate/device_map.c calibrate/exchange_write.c
     store/calibration_record.c util/error.c util/interrupt.c util/outfile.c util/sanitize.c util/text.c util/timeutil.c
     util/jsonw.c util/utf8.c kernels/builtin.c kernels/cpu/backend.c kernels/cpu/gemm.c kernels/cpu/stream.c)
"$cc" -std=c11 -O2 -D_GNU_SOURCE -Wall -Wextra -I"$root" -I"$root/include" \
  -o "$out/gpuplan-calibrate" "${src[@]/#/$root/}" -ldl -lm -lpthread
echo "gpu-fallback-build: built $out/gpuplan-calibrate"
