#!/usr/bin/env bash
# Makes sure PostgreSQL and NATS (with JetStream) answer on their default local ports: starts the
# local ones when installed but stopped, installs them on Debian/Ubuntu when run as root, and
# otherwise says exactly what to install. Safe to run again and again.
set -euo pipefail

PG_HOST=${PG_HOST:-127.0.0.1}
PG_PORT=${PG_PORT:-5432}
NATS_HOST=${NATS_HOST:-127.0.0.1}
NATS_PORT=${NATS_PORT:-4222}

say() { printf '[infra] %s\n' "$*"; }
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
wait_port() {
  for _ in $(seq 1 60); do port_open "$1" "$2" && return 0; sleep 0.5; done
  return 1
}
can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
apt_install() {
  say "installing $* with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "$@" >/dev/null
}

ensure_postgres() {
  if port_open "$PG_HOST" "$PG_PORT"; then say "PostgreSQL is up on $PG_HOST:$PG_PORT"; return; fi
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    if can_apt; then apt_install postgresql; else
      say "PostgreSQL is not running on $PG_HOST:$PG_PORT and is not installed."
      say "Install PostgreSQL 13+ (e.g. 'sudo apt-get install postgresql' or 'brew install postgresql'), start it, or set DATABASE_URL."
      exit 1
    fi
  fi
  local version
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  say "starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_port "$PG_HOST" "$PG_PORT" || { say "PostgreSQL did not start; see /var/log/postgresql/"; exit 1; }
  # Local development trusts loopback connections as user postgres (the documented DATABASE_URL).
  if ! PGCONNECT_TIMEOUT=3 psql -h "$PG_HOST" -U postgres -c 'select 1' >/dev/null 2>&1; then
    say "PostgreSQL is up but refuses 'postgres@$PG_HOST' without a password; set DATABASE_URL with credentials."
  fi
}

ensure_nats() {
  if port_open "$NATS_HOST" "$NATS_PORT"; then say "NATS is up on $NATS_HOST:$NATS_PORT"; return; fi
  if ! command -v nats-server >/dev/null 2>&1; then
    if can_apt; then apt_install nats-server; else
      say "NATS is not running on $NATS_HOST:$NATS_PORT and is not installed."
      say "Install nats-server 2.9+ (e.g. 'sudo apt-get install nats-server' or 'brew install nats-server') and run it with -js, or set NATS_URL."
      exit 1
    fi
  fi
  local store=/var/lib/nats-server log=/var/log/nats-server.log
  if [ "$(id -u)" != 0 ]; then store="$HOME/.local/share/crewswap/nats"; log="$store/nats.log"; fi
  mkdir -p "$store"
  say "starting nats-server with JetStream (store $store)"
  if command -v start-stop-daemon >/dev/null 2>&1; then
    start-stop-daemon --start --oknodo --background --exec "$(command -v nats-server)" -- \
      -a "$NATS_HOST" -p "$NATS_PORT" -js -sd "$store" -l "$log"
  else
    nohup nats-server -a "$NATS_HOST" -p "$NATS_PORT" -js -sd "$store" -l "$log" >/dev/null 2>&1 &
  fi
  wait_port "$NATS_HOST" "$NATS_PORT" || { say "NATS did not start; see $log"; exit 1; }
}

ensure_postgres
ensure_nats
