# The fleet tests' shared check: `check NAME EXPECTED ACTUAL` counts a pass or prints a failure.
# Sourced; the caller prints "$passed passed, $failed failed" and exits on $failed.
passed=0
failed=0
check() {
  if [[ "$3" != "$2" ]]; then
    echo "FAIL $1: got '$3', expected '$2'"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}
