#!/usr/bin/env bash
# contrib/slurm/gpuplan-calibrate.sbatch on a real Slurm: a munged, a slurmctld and two slurmd
# (nodes fc1 and fc2, both on 127.0.0.1) from Debian's slurm-wlm and munge, started here with a
# generated slurm.conf under a temporary folder. The script is submitted with the CPU backend;
# the test waits (bounded) for the calibration and its merge step, checks that every node's
# export was imported into the team database and that the merge printed the fleet view; then that
# a node whose calibration fails loses only its own export. It stops the daemons. Exit 77 (skip) with the reason when the daemons cannot run here.
set -uo pipefail

gpuplan=$1
script=$(cd "$(dirname "$0")/../../contrib/slurm" && pwd)/gpuplan-calibrate.sbatch
fixture=$(cd "$(dirname "$0")/../fixtures/fleet" && pwd)/gpu-node01.json
tmp=$(mktemp -d /tmp/gpuplan-slurm.XXXXXX)
pids=()

stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap stop EXIT

skip() {
  echo "skip: $*"
  for log in "$tmp"/log/*.log; do [[ -f "$log" ]] && { echo "--- $log"; tail -n 5 "$log"; }; done
  exit 77
}

# shellcheck source=tests/contrib/check.sh
source "$(dirname "$0")/check.sh"

for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo python3; do
  command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null 2>&1 ||
    skip "$tool is not installed (scripts/install-deps.sh --ci installs slurm-wlm and munge)"
done
export PATH=$PATH:/usr/sbin
[[ $(id -u) -eq 0 ]] || skip "slurmd launches jobs as their user and must run as root"

# Free loopback ports for slurmctld and the two slurmd.
read -r ctld_port node1_port node2_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p "$tmp"/{munge,state,spool,log,fleet} && chmod 700 "$tmp/munge" && chmod 755 "$tmp"
mungekey --create --keyfile="$tmp/munge/munge.key" >/dev/null 2>&1 || skip "mungekey failed"
munged --force -S "$tmp/munge/sock" --key-file="$tmp/munge/munge.key" \
  --log-file="$tmp/log/munged.log" --pid-file="$tmp/munge/munged.pid" \
  --seed-file="$tmp/munge/seed" >/dev/null 2>&1 || skip "munged does not start"
pids+=("$(cat "$tmp/munge/munged.pid")")

host=$(hostname -s)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=gpuplantest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
InactiveLimit=0
KillWait=5
GresTypes=gpu
NodeName=fc1 NodeAddr=127.0.0.1 NodeHostname=$host Port=$node1_port CPUs=1 RealMemory=500
NodeName=fc2 NodeAddr=127.0.0.1 NodeHostname=$host Port=$node2_port CPUs=1 RealMemory=500
PartitionName=test Nodes=fc1,fc2 Default=YES MaxTime=10 State=UP
EOF

slurmctld -i >/dev/null 2>&1 || skip "slurmctld does not start"
for _ in $(seq 1 50); do [[ -s "$tmp/slurmctld.pid" ]] && break; sleep 0.1; done
[[ -s "$tmp/slurmctld.pid" ]] || skip "slurmctld wrote no pid file"
pids+=("$(cat "$tmp/slurmctld.pid")")
for node in fc1 fc2; do
  slurmd -N "$node" >/dev/null 2>&1 || skip "slurmd -N $node does not start"
  for _ in $(seq 1 50); do [[ -s "$tmp/slurmd-$node.pid" ]] && break; sleep 0.1; done
  [[ -s "$tmp/slurmd-$node.pid" ]] || skip "slurmd $node wrote no pid file"
  pids+=("$(cat "$tmp/slurmd-$node.pid")")
done
for _ in $(seq 1 100); do
  [[ $(sinfo -h -o '%t' -p test 2>/dev/null | sort -u) == idle ]] && break
  sleep 0.2
done
[[ $(sinfo -h -o '%t' -p test 2>/dev/null | sort -u) == idle ]] ||
  skip "the nodes did not come up: $(sinfo -h -o '%N %t' 2>&1 | tr '\n' ' ')"

# Submit as an operator would, overriding the defaults for this two-node CPU cluster; wait for
# the calibration and its merge (bounded: 300 s; a quick CPU calibration takes 10 to 60 s a
# node, both at once, by the load of the machine). Prints the job id.
submit() { # submit GPUPLAN EXPORT_DIR
  local job
  job=$(sbatch --parsable --partition=test --nodes=2 --gres=none --time=5 \
    --output="$tmp/fleet/calibrate-%j.out" \
    --export="ALL,GPUPLAN=$1,GPUPLAN_BACKEND=cpu,GPUPLAN_FLEET_DIR=$2,GPUPLAN_FLEET_DB=$tmp/fleet/team.db" \
    "$script") || return 1
  for _ in $(seq 1 600); do
    [[ -f "$2/merge-$job.out" && -z "$(squeue -h 2>/dev/null)" ]] && break
    sleep 0.5
  done
  echo "$job"
}
stored_runs() {
  python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(
    "select count(*) from calibrations").fetchone()[0])' "$tmp/fleet/team.db" 2>&1
}
exports_of() { (cd "$exports" && ls fc[12]-"$1".json 2>&1 | tr '\n' ' ' | sed 's/ $//'); }

cd "$tmp/fleet" || exit 1
exports=$tmp/fleet/exports
job=$(submit "$gpuplan" "$exports")
check "sbatch accepted the script" 0 $?
check "calibration and merge finished within 300 s" "" "$(squeue -h -o '%i %j %T' 2>&1)"
merge_log=$exports/merge-$job.out
check "one export per node" "fc1-$job.json fc2-$job.json" "$(exports_of "$job")"
check "every export imported" 1 "$(grep -c "job $job: 2 export(s) imported" "$merge_log" 2>&1)"
check "team database holds both runs" 2 "$(stored_runs)"
check "no node reported missing" 0 "$(grep -c 'no export from' "$merge_log" 2>&1)"
# The merge printed the fleet view: its rows when the quick runs fitted curves, else the reason.
if grep -q '"eff_max"' "$exports/fc1-$job.json"; then
  check "fleet view printed" 1 "$(grep -c '^host ' "$merge_log")"
else
  check "fleet view printed" 1 "$(grep -c 'none with a fitted curve' "$merge_log")"
fi

# A node that fails loses only its own export: the merge imports the other and names it. Here
# fc2's calibration fails and fc1's stands in with a fixture export (the real calibration ran
# above), which keeps the test short.
cat >"$tmp/failing-gpuplan" <<EOF
#!/bin/sh
if [ "\$1" = calibrate ] && [ "\$2" = --backend ]; then
  [ "\$SLURMD_NODENAME" = fc2 ] && exit 1
  while [ \$# -gt 1 ]; do [ "\$1" = --export ] && cp "$fixture" "\$2"; shift; done
  exit 0
fi
exec "$gpuplan" "\$@"
EOF
chmod +x "$tmp/failing-gpuplan"
job=$(submit "$tmp/failing-gpuplan" "$exports")
merge_log=$exports/merge-$job.out
check "failed node: the other node's export" "fc1-$job.json" "$(exports_of "$job")"
check "failed node: the other export imported" 1 \
  "$(grep -c "job $job: 1 export(s) imported" "$merge_log" 2>&1)"
check "failed node named" 1 "$(grep -c 'no export from: fc2' "$merge_log" 2>&1)"
check "failed node: team database holds three runs" 3 "$(stored_runs)"

if [[ $failed -ne 0 ]]; then
  for f in "$tmp"/fleet/calibrate-*.out "$merge_log" "$tmp"/log/slurmctld.log; do
    [[ -f "$f" ]] && { echo "--- $f"; tail -n 20 "$f"; }
  done
fi
echo "slurm: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
