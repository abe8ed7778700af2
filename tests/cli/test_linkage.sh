#!/usr/bin/env bash
# The gpuplan executable may link only libc, libm, libdl, libsqlite3, libcjson and libgsl
# (GSL's CBLAS included): GPU SDKs and BLAS are loaded at run time, never linked, and so are
# libcurl, which only the commands that fetch load (its TLS, Kerberos and LDAP chain is not paid
# by every start-up), and libxlsxwriter, which only a workbook loads (with its zip and crypto
# libraries).
set -uo pipefail

allowed='^(libc|libm|libdl|libpthread|libsqlite3|libcjson|libgsl|libgslcblas|ld-linux-x86-64|ld-linux-aarch64|libasan|libubsan|libgcc_s|libstdc\+\+)\.so'
status=0
while read -r lib; do
  if [[ ! "$lib" =~ $allowed ]]; then
    echo "gpuplan links $lib, which is not allowed"
    status=1
  fi
done < <(readelf -d "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
[[ $status -eq 0 ]] && echo "linkage: 1 passed, 0 failed" || echo "linkage: 0 passed, 1 failed"
exit $status
