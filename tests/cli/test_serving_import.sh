#!/usr/bin/env bash
# calibrate import-serving changes nothing when any run of a file is refused, whether the file
# does not parse or a run cannot be fitted; runs from several machines merge into one median
# factor per GPU type, profile and model class, which plans name in efficiency_source.
set -uo pipefail

gpuplan=$1
fixtures=$(cd "$(dirname "$0")/../fixtures/serving" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 GPUPLAN_DB="$tmp/gpuplan.db"
failed=0

check() { # description, condition already evaluated as $?
  if [[ $2 -ne 0 ]]; then echo "FAIL: $1"; failed=$((failed + 1)); else echo "ok: $1"; fi
}

source_of() { # the efficiency_source of the h200-sxm row planned with vllm-cuda
  "$gpuplan" plan --workload chat-llama-3.1-70b --gpus h200-sxm --stack vllm-cuda --format csv \
    --columns efficiency_source 2>/dev/null | tail -n 1 | tr -d '\r'
}

good='{"model_id": "meta-llama/Llama-3.3-70B-Instruct", "max_concurrency": 64, "completed": 640, "total_input_tokens": 655360, "total_output_tokens": 655360, "output_throughput": 2112.7}'
opts=(--gpu h200-sxm --gpus 8 --layout tp2 --precision fp8 --stack vllm-cuda)

# A file whose second line does not parse: exit 2, the first line is not stored either.
printf '%s\n{"max_concurrency": 8, "completed": 1, "total_input_tokens": 1, "total_output_tokens": "x", "output_throughput": 1}\n' "$good" >"$tmp/parse.jsonl"
"$gpuplan" calibrate import-serving "$tmp/parse.jsonl" "${opts[@]}" >/dev/null 2>"$tmp/err"
check "a line that does not parse is exit 2" $(( $? != 2 ))
grep -q 'parse.jsonl:2:' "$tmp/err"; check "the message names line 2" $?
[[ "$(source_of)" == default ]]; check "nothing stored after a parse error" $?

# A file whose second run names a model that is no preset: refused at the fit, nothing stored.
printf '%s\n%s\n' "$good" "${good/Llama-3.3-70B-Instruct/Unknown-9B}" >"$tmp/fit.jsonl"
"$gpuplan" calibrate import-serving "$tmp/fit.jsonl" "${opts[@]/--model*/}" >/dev/null 2>"$tmp/err"
check "a run that cannot be fitted is exit 2" $(( $? != 2 ))
grep -q "fit.jsonl:2: model_id: 'meta-llama/Unknown-9B' is no model preset" "$tmp/err"
check "the message names the run and the field" $?
[[ "$(source_of)" == default ]]; check "nothing stored after a fit error" $?

# Three machines' runs: 2112.7, 1900 and 2300 output tokens/s: the median factor applies.
for rate in 2112.7 1900 2300; do
  printf '%s\n' "${good/2112.7/$rate}" >"$tmp/host-$rate.json"
  "$gpuplan" calibrate import-serving "$tmp/host-$rate.json" "${opts[@]}" >/dev/null 2>&1 ||
    { echo "FAIL: import of host-$rate"; failed=$((failed + 1)); }
done
src=$(source_of)
[[ "$src" == default+serving:3\ runs:x0.56 ]]; check "three runs merge into one median ($src)" $?
again=$("$gpuplan" calibrate import-serving "$tmp/host-1900.json" "${opts[@]}" 2>&1)
[[ "$again" == *"0 run(s) added, 1 already present"* ]]; check "a run imported twice is kept once" $?
[[ "$(source_of)" == "$src" ]]; check "re-importing changes nothing" $?
# Other profiles, GPU types and model classes are not touched.
other=$("$gpuplan" plan --workload chat-llama-3.1-70b --gpus h200-sxm --format csv --columns efficiency_source 2>/dev/null | tail -n 1 | tr -d '\r')
[[ "$other" == default ]]; check "the default profile stays uncalibrated" $?

echo "serving import: $failed failed"
[[ $failed -eq 0 ]]
