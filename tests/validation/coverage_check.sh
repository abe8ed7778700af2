#!/bin/sh
# Checks that the validation harness fails when a band class's held-out coverage drops below
# 80 %: the training rows within one node are given three times their measured time, so each
# falls outside the band the other training rows give it. Then that it fails when one
# publication is off: the ATOM recipes' MoE rows are given three times their measured
# throughput, and the bands the other publications get from them grow past 2x.
# Usage: coverage_check.sh VALIDATE_PLANNER VALIDATION_DIR
set -eu
validate=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# expect_failure INFERENCE TRAINING WHAT PATTERN: the harness must fail on these rows, with a
# line matching PATTERN; WHAT says what is off, for the message.
expect_failure() {
    if "$validate" "$1" "$2" "$dir/power.csv" "$dir/tolerances.csv" >"$tmp/out" 2>&1; then
        echo "coverage_check: the harness passed with $3" >&2
        exit 1
    fi
    if ! grep -q "$4" "$tmp/out"; then
        cat "$tmp/out" >&2
        echo "coverage_check: no failure matching '$4' with $3" >&2
        exit 1
    fi
}

# Fields: 3 anchor, 8 GPUs, 16 measured minutes (no quoting: the harness splits on commas).
awk -F, 'BEGIN { OFS = "," } NR > 1 && $3 != "" && $8 <= 8 { $16 = $16 * 3 } { print }' \
    "$dir/training.csv" >"$tmp/training.csv"
expect_failure "$dir/inference.csv" "$tmp/training.csv" "the node rows three times off" \
    '^band training-node: .*HELD-OUT COVERAGE BELOW TARGET'

# Fields: 14 measured per GPU, 15 source.
awk -F, 'BEGIN { OFS = "," } NR > 1 && $15 ~ /github[.]com[/]ROCm[/]ATOM/ { $14 = $14 * 3 } { print }' \
    "$dir/inference.csv" >"$tmp/inference.csv"
expect_failure "$tmp/inference.csv" "$dir/training.csv" "one publication three times off" \
    '^band inference-moe: .*LEAVE-ONE-SOURCE-OUT BELOW TARGET'
echo "coverage_check: held-out coverage below 80 % and a band wider than 2x with one publication left out fail the validation"
