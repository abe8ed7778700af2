# The CLI tests' shared check, sourced: `check NAME EXPECTED_STATUS ACTUAL_STATUS [FILE PATTERN]`
# counts a pass, or prints the failure (and FILE); with FILE and PATTERN the file must also hold
# the pattern (grep). The caller prints "$passed passed, $failed failed" and exits on $failed.
passed=0
failed=0
check() {
  local name=$1 want=$2 got=$3
  if [[ "$got" != "$want" ]]; then
    echo "FAIL $name: exit $got, expected $want"; [[ $# -ge 4 ]] && cat "$4"
    failed=$((failed + 1)); return
  fi
  if [[ $# -ge 5 ]] && ! grep -q -- "$5" "$4"; then
    echo "FAIL $name: $4 lacks '$5':"; cat "$4"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}
