#!/usr/bin/env bash
# Headless Chromium renders the HTML report: a PNG with no console message, and a DOM with each
# GPU's row in each plan table and one SVG per chart (three per workload, one frontier per
# inference workload, one price history). At 1280x800 the recommendation of the first workload
# (provider, instance, count, monthly cost) lies within the first screen; each GPU type has one
# colour in every chart; and the page printed to PDF holds the recommendation on page 1.
# Usage: test_chromium.sh GPUPLAN [PNG [PDF]]   (where to keep the screenshot and the print)
# Exit 77 (skip) when chromium is not installed.
set -euo pipefail
gpuplan=$1
keep=${2:-}
keep_pdf=${3:-}
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

# The first screen: a copy of the page with a script that measures where the recommendation ends
# (the report itself carries no script), laid out at 1280x800.
python3 - "$tmp/report.html" "$tmp/measure.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
probe = ("<script>addEventListener('load',()=>{const c=document.querySelector('#recommendation "
         ".card');const r=c.getBoundingClientRect();document.body.dataset.recBottom=r.bottom;"
         "document.body.dataset.recText=c.innerText;});</script>")
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", probe + "</body>"))
PY
browser --window-size=1280,800 --run-all-compositor-stages-before-draw --virtual-time-budget=2000 \
  --dump-dom "file://$tmp/measure.html" >"$tmp/measured.html" 2>"$tmp/measure.err"
browser --no-pdf-header-footer --print-to-pdf="$tmp/report.pdf" "file://$tmp/report.html" \
  >"$tmp/print.out" 2>"$tmp/print.err"
[[ -s "$tmp/report.pdf" ]] || { echo "FAIL: no PDF printed"; cat "$tmp/print.err"; exit 1; }
[[ -n "$keep_pdf" ]] && cp "$tmp/report.pdf" "$keep_pdf"
pdftotext -layout -f 1 -l 1 "$tmp/report.pdf" "$tmp/page1.txt"
python3 - "$tmp/report.json" "$tmp/measured.html" "$tmp/dom.html" "$tmp/page1.txt" <<'PY'
import html, json, re, sys
report = json.load(open(sys.argv[1]))
measured = open(sys.argv[2], encoding="utf-8").read()
dom = open(sys.argv[3], encoding="utf-8").read()
page1 = " ".join(open(sys.argv[4], encoding="utf-8").read().split())
first = report["sections"]["summary"][0]
best = report["plans"][0]["rows"][0]
bottom = re.search(r'data-rec-bottom="([0-9.]+)"', measured)
text = re.search(r'data-rec-text="([^"]*)"', measured, re.S)
if not bottom or not text:
    sys.exit("FAIL: the recommendation block was not measured")
card = html.unescape(text.group(1))
month = f"{round(first['cost']):,}"
for want in (best["provider"], best["instance_type"], f"{best['instances']} x", month):
    if want not in card:
        sys.exit(f"FAIL: the first recommendation lacks {want!r}: {card!r}")
if float(bottom.group(1)) > 800:
    sys.exit(f"FAIL: the first recommendation ends at {bottom.group(1)} px, below the first 800")
# one colour per GPU type, in every chart
colours = {}
for tag in re.findall(r"<(?:rect|path|circle|polyline)\b[^>]*data-gpu=[^>]*>", dom):
    gpu = re.search(r'data-gpu="([^"]*)"', tag).group(1)
    colour = re.search(r'(?:fill|stroke)="(#[0-9a-f]{6})"', tag).group(1)
    colours.setdefault(gpu, set()).add(colour)
mixed = {g: c for g, c in colours.items() if len(c) != 1}
if not colours or mixed:
    sys.exit(f"FAIL: GPU types drawn in more than one colour: {mixed}")
if len({next(iter(c)) for c in colours.values()}) != len(colours):
    sys.exit(f"FAIL: two GPU types share a colour: {colours}")
# printed, the recommendation is on page 1
for want in ("Recommendation", best["provider"], month):
    if want not in page1:
        sys.exit(f"FAIL: page 1 of the print lacks {want!r}")
print(f"html: the recommendation ends at {float(bottom.group(1)):.0f} px of 800, "
      f"{len(colours)} GPU types one colour each, page 1 of the print holds it")
PY
