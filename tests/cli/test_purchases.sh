#!/usr/bin/env bash
# What a buyer signs, checked as invariants over the bundled prices rather than as fixed
# output: a plan kept to a jurisdiction prices every GPU type that has an offer there, and only
# from offers there; a multi-node training fleet is one cluster of one offer; the report's
# offer lines add up to each row's purchase.
set -uo pipefail

gpuplan=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 GPUPLAN_DB="$tmp/gpuplan.db"
# shellcheck source=tests/cli/check.sh
source "$(dirname "$0")/check.sh"

# 1. Each jurisdiction with offers in the snapshot: every GPU type offered there is priced, from
#    an offer whose region is there.
for area in eu eea us; do
  "$gpuplan" prices --jurisdiction "$area" --format csv >"$tmp/prices-$area.csv" 2>"$tmp/err"
  check "prices --jurisdiction $area" 0 $? "$tmp/err"
  "$gpuplan" plan -w chat-llama-3.1-70b --jurisdiction "$area" --format csv \
    --columns gpu,provider,region,price_per_gpu_hour,notes >"$tmp/plan-$area.csv" 2>"$tmp/err"
  check "plan --jurisdiction $area" 0 $? "$tmp/err"
  python3 - "$tmp/prices-$area.csv" "$tmp/plan-$area.csv" "$area" >"$tmp/err" 2>&1 <<'PY'
import csv, sys
offers = list(csv.DictReader(open(sys.argv[1])))
rows = list(csv.DictReader(open(sys.argv[2])))
area = sys.argv[3]
allowed = {"eu", "eea"} if area == "eea" else {area}
assert offers, "the snapshot has offers in " + area
assert all(o["jurisdiction"] in allowed for o in offers), offers
regions = {(o["provider"], o["region"]) for o in offers}
offered = {o["gpu"] for o in offers if o["tier"] != "spot"}
priced = {r["gpu"] for r in rows if r["price_per_gpu_hour"]}
assert offered <= priced, "offered in %s but not priced: %s" % (area, offered - priced)
for r in rows:
    if r["price_per_gpu_hour"]:
        assert (r["provider"], r["region"]) in regions, r
    elif r["gpu"] not in offered:
        assert "no-offer-in-region" in r["notes"] or "no-public-price" in r["notes"], r
PY
  check "$area: every GPU type offered there is priced, only from there" 0 $? "$tmp/err"
done

# 2. Training over several nodes: one cluster of one offer, or no-cluster-offer.
"$gpuplan" plan -w train-llama-3.1-70b --format json >"$tmp/train.json" 2>"$tmp/err"
check "plan a training run" 0 $? "$tmp/err"
python3 - "$tmp/train.json" >"$tmp/err" 2>&1 <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
clusters = 0
for r in rows:
    if r["price_per_gpu_hour"] is None:
        continue
    assert r["price_mix"] is None and r["provider"] != "mixed", r  # one offer
    if r["instances"] > 1:
        clusters += 1
        assert r["cluster"] and r["cluster"].startswith("%d x " % r["instances"]), r
assert clusters >= 1, "some fleet is a cluster"
assert any("no-cluster-offer" in r["notes"] for r in rows), "and some GPU type has none"
PY
check "every multi-node training fleet is one cluster" 0 $? "$tmp/err"

echo "purchases: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
