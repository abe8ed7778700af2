#!/usr/bin/env python3
"""Compares what a spreadsheet read back with the plan's JSON values.

  compare.py xlsx JSON DIR      DIR holds one CSV per sheet, from LibreOffice's xlsx export;
                                each plan sheet must match the JSON report's plan rows exactly
                                (to 1e-9, relative), text for text.
  compare.py dadk JSON CSV ORIG CSV is LibreOffice's export of ORIG, the da_DK CSV it imported
                                with Danish settings; each number must be a number and equal the
                                JSON plan's value to the decimals ORIG wrote.
"""
import csv
import json
import math
import os
import sys


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))


def plan_sheet(directory, workload):
    for name in os.listdir(directory):
        if name.endswith(".csv") and "Plan" in name and workload[:20] in name:
            return os.path.join(directory, name)
    fail(f"no plan sheet for {workload} in {sorted(os.listdir(directory))}")


def compare_xlsx(report, directory):
    checked = 0
    for plan in report["plans"]:
        rows = plan["rows"]
        with open(plan_sheet(directory, plan["workload"]["name"]), newline="") as f:
            sheet = list(csv.reader(f))
        if len(sheet) - 1 != len(rows):
            fail(f"{plan['workload']['name']}: {len(sheet) - 1} rows in the sheet, {len(rows)} in JSON")
        for i, row in enumerate(rows):
            for j, (key, want) in enumerate(row.items()):
                got = sheet[i + 1][j] if j < len(sheet[i + 1]) else ""
                if want is None:
                    if got != "":
                        fail(f"row {i} {key}: sheet has {got!r}, JSON null")
                elif isinstance(want, (int, float)):
                    try:  # a percentage cell exports as "26.66%"
                        value = float(got[:-1]) / 100 if got.endswith("%") else float(got)
                    except ValueError:
                        fail(f"row {i} {key}: {got!r} is not a number (JSON {want})")
                    if not close(value, want, 1e-9):
                        fail(f"row {i} {key}: sheet {value!r} != JSON {want!r}")
                    checked += 1
                elif got != want:
                    fail(f"row {i} {key}: sheet {got!r} != JSON {want!r}")
    if checked == 0:
        fail("no number compared")
    print(f"xlsx: {checked} numbers equal the JSON plan")
    compare_rent_own(report, directory)


def sheet_name(title):
    """The sheet name the xlsx renderer makes of a section title."""
    return "".join(" " if c in "[]:*?/\\" else c for c in title)[:31]


def compare_rent_own(report, directory):
    """Each rent-against-own section's sheet holds its JSON rows, cell for cell."""
    sections = report["sections"]
    keys = [k for k in sections if k.startswith("rent-own-")]
    for key in keys:
        rows = sections[key]
        plan = report["plans"][int(key.rsplit("-", 1)[1]) - 1]
        name = sheet_name("Rent against own: " + plan["workload"]["name"])
        files = [f for f in os.listdir(directory) if f.endswith(".csv") and name in f]
        if len(files) != 1:
            fail(f"{key}: sheet {name!r} not found once in {sorted(os.listdir(directory))}")
        with open(os.path.join(directory, files[0]), newline="") as f:
            sheet = list(csv.reader(f))
        if len(sheet) - 1 != len(rows) or not rows:
            fail(f"{key}: {len(sheet) - 1} rows in the sheet, {len(rows)} in JSON")
        for i, row in enumerate(rows):
            for j, (column, want) in enumerate(row.items()):
                got = sheet[i + 1][j]
                if isinstance(want, str):
                    ok = got == want
                else:
                    ok = close(float(got), want, 1e-9)
                if not ok:
                    fail(f"{key} row {i} {column}: sheet {got!r} != JSON {want!r}")
        print(f"xlsx: {key}: {len(rows)} months equal the JSON section")
    return len(keys)


def compare_dadk(plan, exported, original):
    with open(exported, newline="", encoding="utf-8-sig") as f:
        sheet = list(csv.reader(f))
    with open(original, newline="", encoding="utf-8-sig") as f:
        orig = list(csv.reader(f, delimiter=";"))
    rows = plan["rows"]
    checked = 0
    for i, row in enumerate(rows):
        for j, (key, want) in enumerate(row.items()):
            if not isinstance(want, (int, float)):
                continue
            text = orig[i + 1][j]
            decimals = len(text.split(",")[1]) if "," in text else 0
            try:
                value = float(sheet[i + 1][j])
            except ValueError:
                fail(f"row {i} {key}: imported as {sheet[i + 1][j]!r}, not a number")
            if not abs(value - want) <= 0.5 * 10 ** -decimals * (1 + 1e-9) + 1e-12:
                fail(f"row {i} {key}: imported {value!r} != JSON {want!r} ({text!r} in the file)")
            checked += 1
    if checked == 0:
        fail("no number compared")
    print(f"da_DK CSV: {checked} numbers equal the JSON plan")


def main():
    mode = sys.argv[1]
    with open(sys.argv[2]) as f:
        doc = json.load(f)
    if mode == "xlsx":
        compare_xlsx(doc, sys.argv[3])
    else:
        compare_dadk(doc, sys.argv[3], sys.argv[4])


main()
