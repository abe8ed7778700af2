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
