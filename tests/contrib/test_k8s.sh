#!/usr/bin/env bash
# contrib/k8s/calibrate-job.yaml without a cluster, in two checks:
#  1. tests/contrib/k8s_fields.py: every field is one the Kubernetes API documents for its kind,
#     with the right type and enum value, and the Jobs are what a fleet calibration needs
#     (Indexed, one pod per node, a GPU request, a node selector, the shared volume, references
#     to objects defined in the file); a manifest with a misspelt field must fail it;
#  2. `kubectl apply --dry-run=client --validate=false` against a loopback server that answers
#     only API discovery (tests/fixtures/k8s-discovery): kubectl parses every document and maps
#     its kind to a resource.
# Exit 77 (skip) with the reason when python3-yaml or kubectl is missing.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/../../contrib/k8s/calibrate-job.yaml
tmp=$(mktemp -d)
server=
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=tests/contrib/check.sh
source "$(dirname "$0")/check.sh"

python3 -c 'import yaml' 2>/dev/null || { echo "skip: python3 has no yaml module (python3-yaml)"; exit 77; }
python3 "$here/k8s_fields.py" "$manifest" >"$tmp/fields.txt" 2>&1
check "documented fields" 0 $?
cat "$tmp/fields.txt"
sed 's/      nodeSelector:/      nodeSelecter:/; s/maxSkew: 1/maxSkew: "1"/' "$manifest" >"$tmp/bad.yaml"
python3 "$here/k8s_fields.py" "$tmp/bad.yaml" >"$tmp/bad.txt" 2>&1
check "a misspelt field fails" 1 $?
check "the misspelt field is named (both GPU Jobs)" 2 "$(grep -c 'nodeSelecter: not a documented field' "$tmp/bad.txt")"
check "a wrong type is named (both GPU Jobs)" 2 "$(grep -c 'maxSkew: expected an integer' "$tmp/bad.txt")"

if ! command -v kubectl >/dev/null 2>&1; then
  echo "fields: $passed passed, $failed failed"
  echo "skip: kubectl is not installed, the dry run did not run"
  [[ $failed -eq 0 ]] || exit 1
  exit 77
fi
python3 "$here/../servers/fixture_server.py" --root "$here/../fixtures/k8s-discovery" \
  --port-file "$tmp/port" --log "$tmp/requests.log" &
server=$!
for _ in $(seq 1 50); do [[ -s "$tmp/port" ]] && break; sleep 0.1; done
export KUBECONFIG=$tmp/no-kubeconfig
kubectl apply --dry-run=client --validate=false --server "http://127.0.0.1:$(cat "$tmp/port")" \
  -f "$manifest" >"$tmp/apply.txt" 2>&1
check "kubectl dry run" 0 $?
check "every object created (dry run)" \
  "configmap/gpuplan-fleet persistentvolumeclaim/gpuplan-fleet job.batch/gpuplan-calibrate-nvidia job.batch/gpuplan-calibrate-amd job.batch/gpuplan-merge" \
  "$(sed -n 's/ created (dry run)$//p' "$tmp/apply.txt" | tr '\n' ' ' | sed 's/ $//')"
[[ $failed -eq 0 ]] || cat "$tmp/apply.txt"
echo "k8s: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
