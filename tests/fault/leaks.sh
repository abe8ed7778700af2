# Sourced by the allocation fault runners: the leak check of one run.
# leak_check WHERE LIVE BASE FAULT_LOG: a failure (through `fail`) when the run left more blocks
# live at exit than the run without a failure, unless the injected failure happened inside a
# runtime listed in leak.supp.
leak_supp=$(sed -n 's/^leak://p' "$(dirname "${BASH_SOURCE[0]}")/leak.supp")
leak_check() {
  [[ -z "$2" || $2 -le $3 ]] && return
  [[ -n "$leak_supp" ]] && grep -qF "$leak_supp" "$4" && return
  fail "$1: blocks live at exit: $2, without a failure: $3 (a leak)"
}
