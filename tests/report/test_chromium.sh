#!/usr/bin/env bash
# Headless Chromium renders the HTML report: a PNG with no console message, and a DOM with each
# GPU's row in each plan table and one SVG per chart (three per workload, one frontier per
# inference workload, one price history).
# Usage: test_chromium.sh GPUPLAN [PNG]   (PNG: where to keep the screenshot)
# Exit 77 (skip) when chromium is not installed.
set -euo pipefail
gpuplan=$1
keep=${2:-}
command -v chromium >/dev/null || { echo "skip: chromium is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_DB=$tmp/gpuplan.db GPUPLAN_NOW=2026-10-01T12:00:00Z HOME=$tmp
workloads=(-w chat-llama-3.1-70b -w train-llama-3.1-70b -w stream-fp32)
"$gpuplan" report "${workloads[@]}" --out "$tmp/report.html" --title "Chromium check" --author QA
"$gpuplan" report "${workloads[@]}" --out "$tmp/report.json"
browser() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$tmp")" --enable-logging=stderr --v=0 "$@"
}
browser --screenshot="$tmp/report.png" --window-size=1280,2200 "file://$tmp/report.html" \
  >"$tmp/shot.out" 2>"$tmp/shot.err"
browser --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/dom.err"
if grep -h "CONSOLE" "$tmp/shot.err" "$tmp/dom.err"; then
  echo "FAIL: the page wrote to the console"; exit 1
fi
[[ -s "$tmp/report.png" ]] || { echo "FAIL: no screenshot"; cat "$tmp/shot.err"; exit 1; }
[[ $(head -c 8 "$tmp/report.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
  { echo "FAIL: the screenshot is not a PNG"; exit 1; }
[[ -n "$keep" ]] && cp "$tmp/report.png" "$keep"
python3 - "$tmp/report.json" "$tmp/dom.html" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
dom = open(sys.argv[2]).read()
for plan in report["plans"]:
    for row in plan["rows"]:
        if f'data-gpu="{row["gpu"]}"' not in dom:
            sys.exit(f"FAIL: no row for {row['gpu']} ({plan['workload']['name']})")
svgs = len(re.findall(r"<svg\b", dom))
frontiers = [k for k in report["sections"] if k.startswith("frontier-")]
want = 3 * len(report["plans"]) + len(frontiers) + 1
if svgs != want:
    sys.exit(f"FAIL: {svgs} SVG charts in the DOM, want {want}")
dots = len(re.findall(r"<circle\b", dom))
history = len(report["sections"]["price-history"])
points = sum(len(report["sections"][k]) for k in frontiers)
if dots != history + points:
    sys.exit(f"FAIL: {dots} dots, want one per price observation ({history}) and one per "
             f"frontier point ({points})")
if re.search(r"<script|<link|<img|@import|url\(", dom):
    sys.exit("FAIL: the page refers to something outside itself")
print(f"html: every GPU row of {len(report['plans'])} plans and {svgs} charts in the DOM")
PY
