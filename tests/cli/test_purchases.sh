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
here=$(cd "$(dirname "$0")" && pwd)

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

# 5. Rent against own: each owned row's rent is what a rented plan of the same workload buys for
#    that GPU type, its totals are capital plus running and rent over the horizon, and the
#    break-even month of the capex estimate's low and high bracket the typical one (recomputed
#    from data/capex.json's figures and the row's own upfront and running costs).
"$gpuplan" plan -w chat-llama-3.1-70b --horizon-months 24 --format json >"$tmp/rented.json" \
  2>"$tmp/err"
check "plan (rented) for rent against own" 0 $? "$tmp/err"
"$gpuplan" plan -w chat-llama-3.1-70b --pricing owned --horizon-months 24 --format json \
  >"$tmp/owned.json" 2>"$tmp/err"
check "plan --pricing owned --horizon-months 24" 0 $? "$tmp/err"
python3 - "$tmp/rented.json" "$tmp/owned.json" "$here/../../data/capex.json" >"$tmp/err" 2>&1 <<'PY'
import json, sys
rented = {r["gpu"]: r for r in json.load(open(sys.argv[1]))["rows"]}
owned = json.load(open(sys.argv[2]))["rows"]
capex = {e["gpu"]: e["per_gpu"] for e in json.load(open(sys.argv[3]))["estimates"]}
compared = 0
for r in owned:
    rent = rented[r["gpu"]]
    if not r["rent_per_month"]:
        assert rent["cost_per_month"] is None, (r["gpu"], rent["cost_per_month"])
        continue
    compared += 1
    assert r["horizon_months"] == 24, r
    assert abs(r["rent_per_month"] - rent["cost_per_month"]) < 1e-6, r["gpu"]
    assert r["rented_from"] == rent["provider"], r["gpu"]
    assert abs(r["rent_total"] - 24 * r["rent_per_month"]) < 1e-6 * r["rent_total"], r["gpu"]
    # own_total = capital + 24 months running, and break-even = capital / (rent - running)
    running = (r["own_total"] - r["upfront"]) / 24
    assert abs(r["break_even_months"] - r["upfront"] / (r["rent_per_month"] - running)) < 1e-6, r
    c = capex[r["gpu"]]
    for key, price in (("break_even_low", c["low"]), ("break_even_high", c["high"])):
        want = r["upfront"] * price / c["typical"] / (r["rent_per_month"] - running)
        assert abs(r[key] - want) < 1e-6 * want, (r["gpu"], key, r[key], want)
    assert r["break_even_low"] <= r["break_even_months"] <= r["break_even_high"], r["gpu"]
assert compared >= 5, compared
PY
check "owned rows carry the same fleet rented and bracket their break-even" 0 $? "$tmp/err"
"$gpuplan" plan -w chat-llama-3.1-70b --format csv >"$tmp/rented.csv" 2>"$tmp/err"
! head -1 "$tmp/rented.csv" | grep -q "rent_per_month"
check "a rented plan does not list the owning columns" 0 $? "$tmp/err"

echo "purchases: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
