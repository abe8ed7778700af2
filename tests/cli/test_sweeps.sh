#!/usr/bin/env bash
# Sweeps of any length: CSV and JSON written point by point in constant memory, the table's
# notice and limit, --limit in every format, and each streamed point's rows the same as the
# point planned alone.
set -uo pipefail

gpuplan=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 GPUPLAN_DB="$tmp/gpuplan.db"
# shellcheck source=tests/cli/check.sh
source "$(dirname "$0")/check.sh"
w=chat-llama-3.1-70b

# 1. --limit takes a count of rows; --frontier takes none.
for bad in 0 -3 abc 1e3 ""; do
  "$gpuplan" plan -w $w --limit "$bad" >/dev/null 2>"$tmp/err"
  check "--limit '$bad' refused" 2 $? "$tmp/err" "--limit"
done
"$gpuplan" plan -w $w --frontier --limit 3 >/dev/null 2>"$tmp/err"
check "--frontier with --limit refused" 2 $? "$tmp/err" "without --limit"

# 2. A 100,000-point CSV sweep: every row, in constant memory (under 32 MiB resident).
python3 - "$gpuplan" "$tmp" >"$tmp/err" 2>&1 <<'PY'
import os, resource, subprocess, sys
gpuplan, tmp = sys.argv[1], sys.argv[2]
with open(os.path.join(tmp, "sweep.csv"), "wb") as out:
    rc = subprocess.call([gpuplan, "plan", "-w", "chat-llama-3.1-70b", "--gpus", "h100-sxm",
                          "--sweep", "input_tokens=1:100000:1", "--format", "csv",
                          "--columns", "gpu,gpus"], stdout=out, stderr=subprocess.DEVNULL)
assert rc == 0, rc
lines = open(os.path.join(tmp, "sweep.csv")).read().splitlines()
assert lines[0] == "input_tokens,gpu,gpus", lines[0]
assert len(lines) == 100001, len(lines)
assert lines[1].startswith("1,h100-sxm,") and lines[-1].startswith("100000,h100-sxm,"), lines[-1]
peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
if "ASAN_OPTIONS" not in os.environ and "GPUPLAN_WRAPPER" not in os.environ:
    assert peak_mib < 32, "peak resident %.1f MiB" % peak_mib
PY
check "100,000-point CSV sweep in constant memory" 0 $? "$tmp/err"

# 3. A streamed JSON sweep: the rows, then what is known only at the end; each point's rows are
#    the rows of that point planned alone.
"$gpuplan" plan -w $w --sweep input_tokens=512,4096 --format json >"$tmp/sweep.json" 2>"$tmp/err"
check "JSON sweep" 0 $? "$tmp/err"
for v in 512 4096; do
  "$gpuplan" plan -w $w --set input_tokens=$v --format json >"$tmp/alone-$v.json" 2>"$tmp/err"
  check "JSON plan at input_tokens=$v" 0 $? "$tmp/err"
done
python3 - "$tmp" >"$tmp/err" 2>&1 <<'PY'
import json, sys
tmp = sys.argv[1]
sweep = json.load(open(tmp + "/sweep.json"))
assert list(sweep) == ["schema_version", "workload", "rows", "assumptions", "conclusion"], list(sweep)
assert sweep["assumptions"]["sweep"] == "input_tokens"
assert "input_tokens = " in sweep["conclusion"], sweep["conclusion"]
for v in ("512", "4096"):
    alone = json.load(open(tmp + "/alone-%s.json" % v))
    rows = [dict(r) for r in sweep["rows"] if r["input_tokens"] == v]
    for r in rows:
        del r["input_tokens"]
    assert rows == alone["rows"], v
PY
check "a streamed point's rows are the point's alone" 0 $? "$tmp/err"

# 4. --limit: the first rows in every format; the conclusion still covers every point (the
#    sweep runs from the dearest point to the cheapest, so the best lies past the limit).
"$gpuplan" plan -w $w --sweep input_tokens=8192:512:-512 --format csv >"$tmp/all.csv" 2>/dev/null
"$gpuplan" plan -w $w --sweep input_tokens=8192:512:-512 --format csv --limit 7 >"$tmp/7.csv" 2>"$tmp/err"
check "CSV --limit 7" 0 $? "$tmp/err"
head -8 "$tmp/all.csv" | cmp -s - "$tmp/7.csv"
check "CSV --limit 7 is the first 7 rows" 0 $?
"$gpuplan" plan -w $w --sweep input_tokens=8192:512:-512 --format json --limit 7 >"$tmp/7.json" 2>"$tmp/err"
check "JSON --limit 7" 0 $? "$tmp/err"
"$gpuplan" plan -w $w --sweep input_tokens=8192:512:-512 --format json >"$tmp/all.json" 2>/dev/null
"$gpuplan" plan -w $w --sweep input_tokens=8192:512:-512 >"$tmp/all.txt" 2>/dev/null
"$gpuplan" plan -w $w --sweep input_tokens=8192:512:-512 --limit 7 >"$tmp/7.txt" 2>"$tmp/err"
check "table --limit 7" 0 $? "$tmp/err"
python3 - "$tmp" >"$tmp/err" 2>&1 <<'PY'
import csv, json, sys
tmp = sys.argv[1]
all_rows = list(csv.DictReader(open(tmp + "/all.csv")))
doc = json.load(open(tmp + "/7.json"))
assert len(doc["rows"]) == 7
assert [(r["input_tokens"], r["gpu"]) for r in doc["rows"]] == \
    [(r["input_tokens"], r["gpu"]) for r in all_rows[:7]]
table, full = open(tmp + "/7.txt").read().splitlines(), open(tmp + "/all.txt").read().splitlines()
body = [l for l in table if l[:1].isdigit()]
assert len(body) == 7, table
assert table[-1] == full[-1] and "cheapest point of the sweep" in table[-1], (table[-1], full[-1])
whole = json.load(open(tmp + "/all.json"))
assert len(whole["rows"]) == len(all_rows) > 7
assert doc["conclusion"] == whole["conclusion"] and doc["assumptions"] == whole["assumptions"]
# the cheapest point is the last one, far past the 7 rows shown: every point was planned
assert "input_tokens = 512," in doc["conclusion"], doc["conclusion"]
assert all(r["input_tokens"] == "8192" for r in doc["rows"])
PY
check "--limit shows the first rows, concludes on all" 0 $? "$tmp/err"

# 5. The table says how many rows follow for more than 10,000 points, and refuses a table of
#    more rows than it holds unless --limit shows fewer.
"$gpuplan" plan -w $w --gpus h100-sxm --sweep input_tokens=1:10001:1 --limit 3 >"$tmp/out" 2>"$tmp/err"
check "10,001-point table with --limit 3" 0 $? "$tmp/err" "the table shows 3 rows (10001 points x 1), as --limit asks"
"$gpuplan" plan -w $w --gpus h100-sxm --sweep input_tokens=1:600000:1 >"$tmp/out" 2>"$tmp/err"
check "600,000-row table refused" 2 $? "$tmp/err" "more than the 500000 it shows; --limit N"
[[ ! -s "$tmp/out" ]]
check "a refused table prints no rows" 0 $?
"$gpuplan" plan -w $w --sweep input_tokens=1:2000000000:1 --format csv >/dev/null 2>"$tmp/err"
check "two billion points refused" 2 $? "$tmp/err" "more than 1000000000"

echo "sweeps: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
