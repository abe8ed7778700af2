#!/usr/bin/env bash
# LibreOffice reads the report back: it converts the xlsx report to CSV (every sheet, raw
# values) and every number of the plan sheets equals the JSON report's; it imports the plan's
# --locale da_DK CSV with Danish settings and every number equals the JSON plan's.
# Usage: test_libreoffice.sh GPUPLAN. Exit 77 (skip) when soffice is not installed.
set -euo pipefail
gpuplan=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v soffice >/dev/null || { echo "skip: soffice (libreoffice-calc-nogui) is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_DB=$tmp/gpuplan.db GPUPLAN_NOW=2026-10-01T12:00:00Z HOME=$tmp
office() { timeout 180 soffice -env:UserInstallation=file://$tmp/profile --headless "$@" >"$tmp/office.log" 2>&1 || { cat "$tmp/office.log"; exit 1; }; }
workloads=(-w chat-llama-3.1-70b -w train-llama-3.1-70b -w stream-fp32)

"$gpuplan" report "${workloads[@]}" --currency DKK --out "$tmp/report.xlsx" --title "LibreOffice check"
"$gpuplan" report "${workloads[@]}" --currency DKK --out "$tmp/report.json"
mkdir "$tmp/sheets"
office --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1' \
  --outdir "$tmp/sheets" "$tmp/report.xlsx"
python3 "$here/compare.py" xlsx "$tmp/report.json" "$tmp/sheets"

"$gpuplan" plan -w chat-llama-3.1-70b --currency DKK --locale da_DK --format csv >"$tmp/plan-da.csv"
"$gpuplan" plan -w chat-llama-3.1-70b --currency DKK --format json >"$tmp/plan.json"
mkdir "$tmp/back"
# Import: ';' separated, '"' quoted, UTF-8, from line 1, language Danish (1030). Export: ',' and
# US English (1033) numbers, raw values.
office --infilter='Text - txt - csv (StarCalc):59,34,76,1,,1030' \
  --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false' \
  --outdir "$tmp/back" "$tmp/plan-da.csv"
python3 "$here/compare.py" dadk "$tmp/plan.json" "$tmp/back/plan-da.csv" "$tmp/plan-da.csv"

# A plan at a site, power-first: its site columns (PUE, cooling, racks, users, energy prices)
# read back the same from the xlsx and from the da_DK CSV.
site=(-w chat-llama-3.1-70b --site dk1 --pricing owned --power-budget-mw 10 --currency DKK)
"$gpuplan" report "${site[@]}" --out "$tmp/site.xlsx" --title "Site check"
"$gpuplan" report "${site[@]}" --out "$tmp/site.json"
mkdir "$tmp/site-sheets" "$tmp/site-back"
office --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1' \
  --outdir "$tmp/site-sheets" "$tmp/site.xlsx"
grep -q "racks" "$tmp/site-sheets/"*Plan*.csv || { echo "FAIL: the site's plan sheet has no racks"; exit 1; }
python3 "$here/compare.py" xlsx "$tmp/site.json" "$tmp/site-sheets" | tee "$tmp/site-compare.txt"
# The owned plan's rent-against-own sheet was read back, and its line chart draws both columns.
grep -q "rent-own-1: 37 months equal" "$tmp/site-compare.txt" ||
  { echo "FAIL: the rent-against-own sheet was not compared"; exit 1; }
python3 - "$tmp/site.xlsx" <<'PY' || exit 1
import re, sys, zipfile
book = zipfile.ZipFile(sys.argv[1])
charts = [n for n in book.namelist() if n.startswith("xl/charts/chart")]
refs = re.findall(r"<c:f>([^<]*)</c:f>", book.read(charts[0]).decode()) if charts else []
want = ["!$B$1", "!$A$2:$A$38", "!$B$2:$B$38", "!$C$1", "!$A$2:$A$38", "!$C$2:$C$38"]
if len(charts) != 1 or [r[r.index("!"):] for r in refs] != want or \
        not all(r.startswith("'Rent against own") for r in refs):
    sys.exit(f"FAIL: the rent-against-own chart: {charts} {refs}")
print("xlsx: the rent-against-own chart draws months 0-36 of both columns")
PY
"$gpuplan" plan "${site[@]}" --locale da_DK --format csv >"$tmp/site-da.csv"
"$gpuplan" plan "${site[@]}" --format json >"$tmp/site-plan.json"
office --infilter='Text - txt - csv (StarCalc):59,34,76,1,,1030' \
  --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false' \
  --outdir "$tmp/site-back" "$tmp/site-da.csv"
python3 "$here/compare.py" dadk "$tmp/site-plan.json" "$tmp/site-back/site-da.csv" "$tmp/site-da.csv"

# The workbook prints: every sheet on A4 landscape one page wide, its header row repeated, no
# gridlines on paper, a footer; the Assumptions sheet is a table, no JSON and no local path; and
# exported to PDF each plan sheet takes at most two pages.
mkdir "$tmp/unzipped"
(cd "$tmp/unzipped" && unzip -q "$tmp/report.xlsx")
python3 - "$tmp/unzipped" "$tmp/sheets" "$GPUPLAN_DB" <<'PY'
import glob, os, re, sys
root, sheets, db = sys.argv[1], sys.argv[2], sys.argv[3]
book = open(os.path.join(root, "xl/workbook.xml"), encoding="utf-8").read()
names = re.findall(r'<sheet name="([^"]+)"', book)
for i, name in enumerate(names):
    xml = open(os.path.join(root, f"xl/worksheets/sheet{i + 1}.xml"), encoding="utf-8").read()
    setup = re.search(r"<pageSetup[^>]*>", xml)
    if not setup or 'orientation="landscape"' not in setup.group(0) or 'paperSize="9"' not in setup.group(0):
        sys.exit(f"FAIL: {name}: not set up for A4 landscape: {setup and setup.group(0)}")
    if '<pageSetUpPr fitToPage="1"/>' not in xml or "<oddFooter>" not in xml:
        sys.exit(f"FAIL: {name}: not fitted to the page width, or no footer")
    if 'gridLines="1"' in xml:
        sys.exit(f"FAIL: {name}: prints its gridlines")
    titles = re.search(rf'Print_Titles" localSheetId="{i}">(?:\'{re.escape(name)}\'|{re.escape(name)})!\$1:\$1',
                       book.replace("&apos;", "'"))
    if name != "Cover" and not titles:
        sys.exit(f"FAIL: {name}: its header row is not repeated on each page")
assumptions = [f for f in os.listdir(sheets) if "Assumptions" in f]
text = open(os.path.join(sheets, assumptions[0]), encoding="utf-8").read()
if "{" in text or os.path.dirname(db) in text:
    sys.exit("FAIL: the Assumptions sheet holds JSON or the database's folder")
print(f"xlsx: {len(names)} sheets set up for print; Assumptions is a plain table")
PY
office --convert-to pdf --outdir "$tmp/pdf" "$tmp/report.xlsx"
plans=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["plans"]))' "$tmp/report.json")
pages=$(pdfinfo "$tmp/pdf/report.pdf" | awk '/^Pages:/ {print $2}')
plan_pages=0
for ((p = 1; p <= pages; p++)); do # a plan sheet's page repeats its header, "GPUs needed" in it
  pdftotext -f "$p" -l "$p" "$tmp/pdf/report.pdf" - | grep -q "GPUs needed" && plan_pages=$((plan_pages + 1))
done
echo "pdf: $pages pages, $plan_pages of them for $plans plan sheets"
(( plan_pages >= plans && plan_pages <= 2 * plans )) || { echo "FAIL: more than two pages a plan sheet"; exit 1; }
