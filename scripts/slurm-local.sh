#!/usr/bin/env bash
# A one-node Slurm cluster on this (Debian) machine, for trying `boids sweep` on Slurm and for CI.
#
#   sudo scripts/slurm-local.sh start    # install slurm-wlm and munge if missing, start the daemons
#   export SLURM_CONF=/tmp/boids-slurm/slurm.conf
#   sbatch --wait --array=1-3 examples/slurm/sweep.sbatch …
#   sudo scripts/slurm-local.sh stop     # stop the daemons this script started
#   scripts/slurm-local.sh status
#
# Everything lives under one folder, $BOIDS_SLURM_DIR (default /tmp/boids-slurm): slurm.conf, the
# munge key and socket, the daemons' state, logs and pid files. Nothing under /etc is changed, so
# the client commands need SLURM_CONF pointing at that slurm.conf.
#
# start: needs root (apt, munged as user munge, slurmd). Writes a minimal slurm.conf: this host as
# controller and only node (NodeAddr 127.0.0.1, its CPU count from nproc), one partition `boids`,
# ProctrackType=proctrack/linuxproc and TaskPlugin=task/none (no cgroups, so it runs in containers),
# no accounting. Starts munged (as user munge), slurmctld and slurmd in the foreground as background
# processes and records their PIDs; waits until `sinfo` shows the node idle, else prints the logs'
# tails and fails. Ports: $BOIDS_SLURM_PORT (default 16817) for slurmctld and the next one for
# slurmd, away from a real installation's 6817/6818.
#
# stop: kills only the daemons recorded in the pid files (checking that each PID is still the
# daemon the script started), never by name; the folder is kept for the logs (`rm -rf` it to reset).
set -euo pipefail

DIR="${BOIDS_SLURM_DIR:-/tmp/boids-slurm}"
PORT="${BOIDS_SLURM_PORT:-16817}"
CONF="$DIR/slurm.conf"
NODE="$(hostname -s)"
DAEMONS=(munged slurmctld slurmd)

log() { echo "slurm-local: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

tails() {
  for f in "$DIR"/munged.log "$DIR"/slurmctld.log "$DIR"/slurmd.log; do
    [ -f "$f" ] || continue
    echo "----- last lines of $f -----" >&2
    tail -n 25 "$f" >&2
  done
}

# The recorded PID of daemon $1 when it is still that daemon, else nothing.
live_pid() {
  local f="$DIR/$1.pid" pid comm
  [ -f "$f" ] || return 0
  pid="$(cat "$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  comm="$(cat "/proc/$pid/comm" 2>/dev/null || true)"
  [ "$comm" = "$1" ] && echo "$pid"
  return 0
}

install_packages() {
  local need=()
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null ||
    need+=(slurm-wlm)
  command -v munged >/dev/null || need+=(munge)
  if [ ${#need[@]} -gt 0 ]; then
    log "installing ${need[*]} with apt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
}

write_conf() {
  local cpus
  cpus="$(nproc)"
  cat >"$CONF" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster on $NODE.
ClusterName=boids-local
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$DIR/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$DIR/ctld
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.daemon.pid
SlurmdPidFile=$DIR/slurmd.daemon.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=600
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=boids Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
  [ "$(id -u)" = 0 ] || die "start needs root (apt, munged as user munge, slurmd): sudo $0 start"
  for d in "${DAEMONS[@]}"; do
    if [ -n "$(live_pid "$d")" ]; then
      die "$d is already running from $DIR (pid $(live_pid "$d")); run '$0 stop' first"
    fi
  done
  install_packages
  id munge >/dev/null 2>&1 || die "user munge is missing (the munge package creates it)"
  mkdir -p "$DIR" "$DIR/ctld" "$DIR/spool" "$DIR/munge"
  chmod 0755 "$DIR"
  # munged refuses a key that others can read and folders that others can write; the socket's
  # folder stays searchable so that every user's sbatch can reach it.
  chown munge:munge "$DIR/munge"
  chmod 0755 "$DIR/munge"
  if [ ! -s "$DIR/munge/munge.key" ]; then
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile="$DIR/munge/munge.key" --force
    else
      dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
    fi
  fi
  chown munge:munge "$DIR/munge/munge.key"
  chmod 0400 "$DIR/munge/munge.key"
  write_conf
  rm -f "$DIR"/*.log

  # Each daemon runs in the foreground (-F / -D) as a background process of this script, so $! is
  # its PID (setpriv and nohup exec it, they do not fork).
  nohup setpriv --reuid=munge --regid=munge --init-groups -- \
    munged --foreground --force \
    --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.socket" \
    --pid-file="$DIR/munge/munged.daemon.pid" --seed-file="$DIR/munge/munged.seed" \
    --log-file="$DIR/munge/munged.log" >"$DIR/munged.log" 2>&1 &
  echo $! >"$DIR/munged.pid"
  for _ in $(seq 50); do
    [ -S "$DIR/munge/munge.socket" ] && break
    sleep 0.1
  done
  [ -S "$DIR/munge/munge.socket" ] || {
    cat "$DIR/munge/munged.log" >>"$DIR/munged.log" 2>/dev/null || true
    tails
    die "munged did not start"
  }

  export SLURM_CONF="$CONF"
  nohup slurmctld -D -i -f "$CONF" >"$DIR/slurmctld.out" 2>&1 &
  echo $! >"$DIR/slurmctld.pid"
  nohup slurmd -D -f "$CONF" -N "$NODE" >"$DIR/slurmd.out" 2>&1 &
  echo $! >"$DIR/slurmd.pid"

  local state=""
  for _ in $(seq 60); do
    state="$(sinfo -h -N -n "$NODE" -o '%T' 2>/dev/null | head -n1 || true)"
    [ "$state" = idle ] && break
    sleep 0.5
  done
  if [ "$state" != idle ]; then
    cat "$DIR/munge/munged.log" >>"$DIR/munged.log" 2>/dev/null || true
    tails
    for d in slurmctld slurmd; do
      [ -s "$DIR/$d.out" ] && { echo "----- $DIR/$d.out -----" >&2; tail -n 10 "$DIR/$d.out" >&2; }
    done
    die "node $NODE is '${state:-not listed}', not idle, after 30 s (logs above; '$0 stop' to clean up)"
  fi
  log "node $NODE idle with $(nproc) CPUs, partition boids; state in $DIR"
  echo "export SLURM_CONF=$CONF"
}

stop() {
  local any=0
  # slurmd first (it holds the node), munged last (the others authenticate through it).
  for d in slurmd slurmctld munged; do
    local f="$DIR/$d.pid" pid
    [ -f "$f" ] || continue
    pid="$(live_pid "$d")"
    if [ -z "$pid" ]; then
      log "$d (pid $(cat "$f")) is not running"
      rm -f "$f"
      continue
    fi
    [ "$(id -u)" = 0 ] || die "stop needs root to end $d (pid $pid): sudo $0 stop"
    kill -TERM "$pid"
    for _ in $(seq 100); do
      [ -n "$(live_pid "$d")" ] || break
      sleep 0.1
    done
    if [ -n "$(live_pid "$d")" ]; then
      log "$d (pid $pid) did not stop in 10 s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
    log "stopped $d (pid $pid)"
    any=1
  done
  [ "$any" = 1 ] || log "nothing to stop in $DIR"
}

status() {
  for d in "${DAEMONS[@]}"; do
    local pid
    pid="$(live_pid "$d")"
    if [ -n "$pid" ]; then echo "$d: running, pid $pid"; else echo "$d: not running"; fi
  done
  if [ -f "$CONF" ] && [ -n "$(live_pid slurmctld)" ]; then
    SLURM_CONF="$CONF" sinfo -N || true
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *)
    echo "usage: $0 start|stop|status   (state in $DIR)" >&2
    exit 2
    ;;
esac
