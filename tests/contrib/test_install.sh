#!/usr/bin/env bash
# Installing on the nodes: `cmake --install` into a DESTDIR with prefix /usr puts the program,
# its modules where it looks for them, the man page, the completions and the systemd units in
# their standard places; the installed binary's `gpuplan backends` loads its modules from there
# and none from the build tree; every option of every command's --help appears in gpuplan(1)
# and in both completions, and bash completes commands, subcommands and options; CPack's Debian
# packages (when dpkg-deb is here) hold what they should and depend on their runtimes.
# Usage: test_install.sh BUILD_DIR
set -uo pipefail

build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
# shellcheck source=tests/contrib/check.sh
source "$(dirname "$0")/check.sh"

DESTDIR=$root cmake --install "$build" --prefix /usr >"$tmp/install.log" 2>&1
check "cmake --install" 0 $?
for f in bin/gpuplan share/man/man1/gpuplan.1 share/bash-completion/completions/gpuplan \
  share/zsh/vendor-completions/_gpuplan lib/systemd/user/gpuplan-refresh.timer \
  lib/systemd/system/gpuplan-refresh.service lib/sysusers.d/gpuplan.conf \
  share/doc/gpuplan/fleet.md share/doc/gpuplan/contrib/slurm/gpuplan-calibrate.sbatch; do
  [[ -f "$root/usr/$f" ]]; check "installed $f" 0 $?
done
check "units run the installed binary" 2 \
  "$(grep -h '^ExecStart=/usr/bin/gpuplan ' "$root"/usr/lib/systemd/*/gpuplan-refresh.service | wc -l)"

# The installed binary finds the installed modules, every one built, and none from the build.
modules=$(cd "$build/lib/gpuplan" 2>/dev/null && ls libgpuplan-*.so 2>/dev/null | sort | tr '\n' ' ')
for m in $modules; do [[ -f "$root/usr/lib/gpuplan/$m" ]]; check "installed module $m" 0 $?; done
"$root/usr/bin/gpuplan" backends --format csv --db "$tmp/backends.db" 2>&1 | tr -d '\r' >"$tmp/backends.csv"
check "installed gpuplan backends" 0 "${PIPESTATUS[0]}"
# The rows of modules found (their path last); a backend whose module was not built has none.
found=$(awk -F, 'NR > 1 && $NF != "built-in" && $NF != ""' "$tmp/backends.csv")
loaded_from=$(printf '%s\n' "$found" | awk -F, 'NF {print $NF}' | sed 's|.*/||' | sort |
  tr '\n' ' ')
check "every module found" "$modules" "$loaded_from"
check "no module from outside the installed tree" 0 \
  "$(printf '%s\n' "$found" | grep . | grep -vc ",$root/usr/bin/../lib/gpuplan/libgpuplan-")"
check "no module from the build tree" 0 "$(grep -c "$build" "$tmp/backends.csv")"

# Every option of every command (and subcommand) in the man page and both completions.
gpuplan=$root/usr/bin/gpuplan
commands=$("$gpuplan" help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} /^$/ {on = 0}')
helps=()
for c in $commands; do helps+=("$c"); done
helps+=("prices history" "quote add" "quote list" "quote rm" "calibrate import" "calibrate list")
: >"$tmp/options"
for h in "${helps[@]}"; do
  # shellcheck disable=SC2086
  "$gpuplan" $h --help 2>&1 | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' \
    >>"$tmp/options"
done
sort -u "$tmp/options" -o "$tmp/options"
check "options found in --help" 1 "$([[ $(wc -l <"$tmp/options") -gt 30 ]] && echo 1)"
man=$root/usr/share/man/man1/gpuplan.1
bash_completion=$root/usr/share/bash-completion/completions/gpuplan
zsh_completion=$root/usr/share/zsh/vendor-completions/_gpuplan
while read -r option; do
  grep -qF -- "\\-\\-${option#--}" "$man"; check "man page has $option" 0 $?
  grep -qE -- "(^|[\" ])$option( |\")" "$bash_completion"; check "bash completion has $option" 0 $?
  grep -qF -- "$option[" "$zsh_completion" || grep -qF -- "$option}" "$zsh_completion"
  check "zsh completion has $option" 0 $?
done <"$tmp/options"
for c in $commands; do
  grep -q "^\\.SS $c\$" "$man"; check "man page has the command $c" 0 $?
done

# bash completes what a user types.
complete_words() { # complete_words WORD... -> the completions of the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpuplan
           printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_completion" "$@" | sort | tr '\n' ' '
}
check "bash: a command" "calibrate " "$(complete_words gpuplan cali)"
check "bash: a subcommand" "list " "$(complete_words gpuplan calibrate li)"
check "bash: a subcommand's option" "--threshold " "$(complete_words gpuplan calibrate list --thr)"
check "bash: a global option" "--no-color " "$(complete_words gpuplan plan --no-c)"
if command -v zsh >/dev/null 2>&1; then
  zsh -n "$zsh_completion"; check "zsh completion parses" 0 $?
fi
if command -v groff >/dev/null 2>&1; then
  check "man page renders without warnings" "" "$(groff -man -ww -z "$man" 2>&1)"
fi

# The Debian packages.
if command -v dpkg-deb >/dev/null 2>&1 && command -v cpack >/dev/null 2>&1; then
  (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" >"$tmp/cpack.log" 2>&1)
  check "cpack -G DEB" 0 $?
  deb=$(ls "$tmp"/deb/gpuplan_*.deb 2>/dev/null)
  dpkg-deb -c "$deb" >"$tmp/gpuplan.list" 2>&1
  for f in usr/bin/gpuplan usr/share/man/man1/gpuplan.1 usr/share/bash-completion/completions/gpuplan \
    usr/share/zsh/vendor-completions/_gpuplan usr/lib/systemd/system/gpuplan-refresh.timer; do
    grep -q " \./$f\$" "$tmp/gpuplan.list"; check "package gpuplan has $f" 0 $?
  done
  check "package gpuplan holds no module" 0 "$(grep -c 'libgpuplan-' "$tmp/gpuplan.list")"
  for m in $modules; do
    name=${m#libgpuplan-}
    name=gpuplan-${name%.so}
    pkg=$(ls "$tmp"/deb/"${name}"_*.deb 2>/dev/null)
    check "package $name holds $m" 1 "$(dpkg-deb -c "$pkg" 2>&1 | grep -c " \./usr/lib/gpuplan/$m\$")"
    depends=$(dpkg-deb -f "$pkg" Depends 2>&1)
    check "package $name depends on gpuplan" 1 "$(grep -c '^gpuplan (= ' <<<"$depends")"
    check "package $name depends on its runtime" 1 "$(grep -c ', [a-z]' <<<"$depends")"
  done
fi

echo "install: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
