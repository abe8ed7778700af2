#!/usr/bin/env bash
# `gpuplan report` end to end: the format from the extension, the JSON document's shape, a CSV
# folder per report (da_DK with a byte order mark) replaced whole on a second run, da_DK HTML
# with decimal commas in its charts, announced systems in a section apart, and writes that fail
# leave neither a half file nor a temporary one behind.
# Usage: test_report_cli.sh GPUPLAN
set -uo pipefail
gpuplan=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_DB=$tmp/gpuplan.db GPUPLAN_NOW=2026-10-01T12:00:00Z
failed=0
check() { # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failed=1; fi
}
no_temporaries() { ! ls -a "$1" | grep -q '\.tmp-'; }

fixtures=$(cd "$(dirname "$0")/../fixtures" && pwd)
"$gpuplan" report -w chat-llama-3.1-70b -w stream-fp32 -w "$fixtures/workloads/chat-blended.json" \
  --out "$tmp/r.json" 2>/dev/null
check "json report written" test -s "$tmp/r.json"
check "json: schema 2, two plans, the sections" python3 - "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 2, d["schema_version"]
assert [p["workload"]["name"] for p in d["plans"]] == ["chat-llama-3.1-70b", "stream-fp32",
                                                     "chat-blended"]
assert set(d["sections"]) == {"summary", "frontier-1", "frontier-3", "offers", "quotes",
                              "price-history", "assumptions"}
# the inference workload's frontier: per GPU type, throughput falls as interactivity rises
front = d["sections"]["frontier-1"]
assert front and {p["gpu"] for p in front} <= {r["gpu"] for r in d["plans"][0]["rows"]}
for a_, b_ in zip(front, front[1:]):
    if a_["gpu"] == b_["gpu"]:
        assert a_["tokens_per_s_per_user"] > b_["tokens_per_s_per_user"], (a_, b_)
        assert a_["tokens_per_s_per_gpu"] < b_["tokens_per_s_per_gpu"], (a_, b_)
summary = d["sections"]["summary"]
assert len(summary) == 4 and d["plans"][0]["rows"][0]["notes"].startswith("best")
# the recommendation names the purchase; the three services add up in one monthly total
for s, plan in zip(summary, d["plans"]):
    best = plan["rows"][0]
    assert s["recommended"] == best["gpu"] and s["provider"] == best["provider"], s
    bought = [o["instance_type"] for o in d["sections"]["offers"]
              if (o["workload"], o["gpu"]) == (s["workload"], best["gpu"])]
    assert bought and all(i in s["buy"] for i in bought) and s["cost_per"] == "month", s
    assert s["cost_low"] <= s["cost"] <= s["cost_high"] and s["would_change"] and s["risks"], s
total = summary[3]
assert total["recommended"] is None and total["cost_per"] == "month", total
assert abs(total["cost"] - sum(s["cost"] for s in summary[:3])) < 1e-6, total
offers = d["sections"]["offers"]
rows = {(p["workload"]["name"], r["gpu"]): r for p in d["plans"] for r in p["rows"]
        if r["price_per_gpu_hour"] is not None}
assert {(o["workload"], o["gpu"]) for o in offers} == set(rows), "offer lines for each priced row"
# the lines are the purchase: they add up to the row's GPUs and monthly cost
for key, row in rows.items():
    lines = [o for o in offers if (o["workload"], o["gpu"]) == key]
    assert sum(o["gpus_bought"] for o in lines) == row["gpus"], (key, lines)
    assert abs(sum(o["cost_per_month"] for o in lines) - row["cost_per_month"]) <= len(lines), key
    assert lines[0]["gpus_needed"] == row["gpus_needed"] and row["gpus"] >= row["gpus_needed"]
    assert all(o["instance_type"] and o["tier"] for o in lines), lines
assert any(len([o for o in offers if (o["workload"], o["gpu"]) == k]) > 1 for k in rows), \
    "a blended fleet lists each of its lines"
assert {o["bought_for"] for o in offers} >= {"all", "baseline", "peak"}, offers
for o in offers:
    assert o["source"].startswith("https://") and o["observed"], o
PY

"$gpuplan" report -w train-llama-3.1-70b -w "$fixtures/workloads/train-llama-3.1-8b.json" \
  -w chat-llama-3.1-70b --out "$tmp/kinds.json" 2>/dev/null
check "totals by kind: runs apart from months, never added together" python3 - "$tmp/kinds.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["summary"]
plans = [r for r in rows if r["recommended"]]
totals = [r for r in rows if not r["recommended"] and r["cost"] is not None]
assert [r["kind"] for r in plans] == ["one-off", "one-off", "recurring"], plans
assert [t["cost_per"] for t in totals] == ["run"], totals  # one service: its own total
want = sum(r["cost"] for r in plans if r["kind"] == "one-off")
assert abs(totals[0]["cost"] - want) < 1e-6 and totals[0]["facility_kw"] is None, totals
train = d["plans"][0]["rows"][0]
assert abs(plans[0]["cost"] - train["total_cost"]) < 1e-6, (plans[0], train["total_cost"])
assert "one cluster of" in plans[0]["buy"], plans[0]
PY

"$gpuplan" report -w chat-llama-3.1-70b -w train-llama-3.1-70b -w "$fixtures/workloads/chat-blended.json" \
  --horizon-months 3 --out "$tmp/spend.focus.csv" 2>/dev/null
"$gpuplan" report -w chat-llama-3.1-70b -w train-llama-3.1-70b -w "$fixtures/workloads/chat-blended.json" \
  --horizon-months 3 --out "$tmp/spend.json" 2>/dev/null
check "focus: FOCUS 1.x columns and types, a row per purchase line and month" python3 - "$tmp/spend.focus.csv" "$tmp/spend.json" <<'PY'
import csv, json, re, sys
from datetime import datetime
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
report = json.load(open(sys.argv[2]))
required = ["BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "BillingCurrency",
            "BillingPeriodStart", "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd",
            "ChargeCategory", "ChargeFrequency", "ChargeDescription", "PricingCategory",
            "PricingUnit", "PricingQuantity", "ListUnitPrice", "ContractedUnitPrice",
            "ProviderName", "PublisherName", "InvoiceIssuerName", "RegionId", "ServiceCategory",
            "ServiceName", "ResourceType", "SkuId", "CommitmentDiscountCategory",
            "CommitmentDiscountType"]
header = list(rows[0].keys())
assert all(c in header for c in required), set(required) - set(header)
assert all(c in required or c.startswith("x_") or c in ("ConsumedUnit", "ConsumedQuantity")
           for c in header), header  # nothing outside FOCUS but x_ columns
stamp = lambda t: datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")
decimal = re.compile(r"^-?\d+(\.\d+)?$")
for r in rows:
    for c in ("BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "PricingQuantity",
              "ListUnitPrice", "ContractedUnitPrice", "ConsumedQuantity"):
        assert decimal.match(r[c]), (c, r[c])
    assert re.match(r"^[A-Z]{3}$", r["BillingCurrency"]), r
    assert stamp(r["ChargePeriodStart"]) < stamp(r["ChargePeriodEnd"]), r
    assert stamp(r["ChargePeriodStart"]).day == 1 and r["BillingPeriodStart"] == r["ChargePeriodStart"]
    assert r["ChargeCategory"] in ("Usage", "Purchase", "Tax", "Credit", "Adjustment"), r
    assert r["ChargeFrequency"] in ("One-Time", "Recurring", "Usage-Based"), r
    assert r["PricingCategory"] in ("Standard", "Dynamic", "Committed", "Other"), r
    assert bool(r["CommitmentDiscountType"]) == (r["PricingCategory"] == "Committed"), r
    assert abs(float(r["ListUnitPrice"]) * float(r["PricingQuantity"]) - float(r["BilledCost"])) < 0.01, r
# a service each month of the horizon, at its monthly cost; the training run once, at its cost
summary = {s["workload"]: s for s in report["sections"]["summary"] if s["recommended"]}
for name, s in summary.items():
    mine = [r for r in rows if r["x_Workload"] == name]
    months = sorted({r["ChargePeriodStart"] for r in mine})
    total = sum(float(r["BilledCost"]) for r in mine)
    if s["kind"] == "recurring":
        assert len(months) == 3, (name, months)
        assert abs(total - 3 * s["cost"]) < 0.01 * len(mine), (name, total, s["cost"])
    else:
        assert abs(total - s["cost"]) < 0.01 * len(mine), (name, total, s["cost"])
assert len({r["x_Role"] for r in rows}) > 1, "the blended fleet's lines are apart"
PY

"$gpuplan" report -w chat-llama-3.1-70b --power-budget-kw 8 --out "$tmp/budget.html" 2>/dev/null
check "html: the power chart marks the budget, and the rows over it say so" python3 - "$tmp/budget.html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
assert re.search(r'class="limit"/><text[^>]*>budget 8<', page), "no budget line"
assert "over-power-budget" in page, "no row over the budget named"
PY

"$gpuplan" report -w chat-llama-3.1-70b --locale da_DK --out "$tmp/csv/" 2>/dev/null
check "csv folder holds one file per section" test -s "$tmp/csv/summary.csv" -a -s "$tmp/csv/plan-1.csv" -a -s "$tmp/csv/offers.csv" -a -s "$tmp/csv/frontier-1.csv"
check "da_DK CSV starts with a byte order mark and uses ';'" \
  bash -c "head -c 3 '$tmp/csv/plan-1.csv' | od -An -tx1 | grep -q 'ef bb bf' && grep -q ';' '$tmp/csv/plan-1.csv'"
"$gpuplan" report -w chat-llama-3.1-70b --locale da_DK --out "$tmp/da.html" 2>/dev/null
check "da_DK html: chart labels and the price axis use the decimal comma" python3 - "$tmp/da.html" <<'PY'
import re, sys
labels = re.findall(r"<text[^>]*>([-0-9.,]+)</text>", open(sys.argv[1], encoding="utf-8").read())
assert len(labels) > 10, labels
# a point only between groups of three digits (the Danish thousands mark), never as a decimal
danish = re.compile(r"^-?\d{1,3}(\.\d{3})*(,\d+)?$|^\d{4}-\d{2}-\d{2}$")
assert not [l for l in labels if not danish.match(l)], labels
assert [l for l in labels if re.match(r"^\d{1,3}\.\d{3}$", l)], labels
assert [l for l in labels if "," in l], labels
PY
touch "$tmp/csv/plan-9.csv"
"$gpuplan" report -w chat-llama-3.1-70b --format csv --out "$tmp/csv" 2>/dev/null
check "a second csv report replaces the folder whole" bash -c "[[ ! -e '$tmp/csv/plan-9.csv' && -s '$tmp/csv/summary.csv' ]]"
touch "$tmp/csv/notes.txt"
"$gpuplan" report -w chat-llama-3.1-70b --format csv --out "$tmp/csv" 2>/dev/null
check "a folder holding other files is not replaced (2)" test $? -eq 2
check "  and keeps them" test -e "$tmp/csv/notes.txt"
check "no temporary folder is left" no_temporaries "$tmp"

"$gpuplan" report -w chat-llama-3.1-70b --out "$tmp/r.pdf" 2>"$tmp/err"
check "an unknown extension is a usage error (2)" test $? -eq 2
check "  and says what to give" grep -q "give --format" "$tmp/err"
"$gpuplan" report -w chat-llama-3.1-70b --out "$tmp/missing/r.html" 2>"$tmp/err"
check "a folder that does not exist fails (1)" test $? -eq 1
mkdir "$tmp/taken.html"
"$gpuplan" report -w chat-llama-3.1-70b --out "$tmp/taken.html" 2>"$tmp/err"
check "a folder in the way fails" test $? -ne 0
check "  and leaves no temporary file" no_temporaries "$tmp"
echo "keep" >"$tmp/plain.csv"
"$gpuplan" report -w chat-llama-3.1-70b --out "$tmp/plain.csv" --format csv 2>"$tmp/err"
check "a file where the CSV folder goes is refused (2)" test $? -eq 2
check "  and kept as it was" grep -qx keep "$tmp/plain.csv"
# Announced systems: planned only when asked, never recommended, and listed apart with the
# vendor's ship date.
"$gpuplan" report -w chat-deepseek-r1 --include-announced --out "$tmp/announced.json" 2>/dev/null
check "announced: the report lists them apart" python3 - "$tmp/announced.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
apart = d["sections"]["announced"]
assert {a["gpu"] for a in apart} == {"mi455x-helios", "vr200-nvl72"}, apart
rows = {r["gpu"]: r for r in d["plans"][0]["rows"]}
for a in apart:
    assert a["ships"] and a["confidence"] == "estimate" and a["system"], a
    assert a["throughput_low"] < a["tokens_per_s_per_gpu"] < a["throughput_high"], a
    assert "announced" in rows[a["gpu"]]["notes"] and "best" not in rows[a["gpu"]]["notes"]
assert d["sections"]["summary"][0]["recommended"] not in {a["gpu"] for a in apart}
PY
"$gpuplan" report -w no-such-preset --out "$tmp/r2.html" 2>/dev/null
check "a bad workload writes nothing" test ! -e "$tmp/r2.html"
"$gpuplan" report --out "$tmp/r3.html" 2>"$tmp/err"
check "--workload is required (2)" test $? -eq 2
exit $failed
