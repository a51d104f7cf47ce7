# Sourced by .ci/run: a throwaway PostgreSQL on a loopback port for the Postgres memory tests.
# Installs Debian's `postgresql` when initdb is missing; runs the server as `postgres` when CI
# runs as root (initdb refuses root); exports ONCOURSE_TEST_POSTGRES; stop_postgres removes it.

pg_bin() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1
}

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  if [ -z "$(pg_bin initdb)" ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
      || { echo "ci: could not install postgresql" >&2; return 1; }
  fi
  local initdb pg_ctl port
  initdb=$(pg_bin initdb); pg_ctl=$(pg_bin pg_ctl)
  PG_ROOT=$(mktemp -d /tmp/oncourse-ci-pg.XXXXXX)
  mkdir "$PG_ROOT/sock"
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$PG_ROOT"; fi
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_pg "$initdb" -D "$PG_ROOT/data" -A trust -U oncourse --no-sync >/dev/null
  as_pg "$pg_ctl" -D "$PG_ROOT/data" -l "$PG_ROOT/log" -w \
    -o "-p $port -k $PG_ROOT/sock -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
  export ONCOURSE_TEST_POSTGRES="postgresql://oncourse@127.0.0.1:$port/postgres"
  echo "ci: PostgreSQL on 127.0.0.1:$port ($PG_ROOT)"
}

stop_postgres() {
  if [ -n "${PG_ROOT:-}" ] && [ -d "$PG_ROOT/data" ]; then
    as_pg "$(pg_bin pg_ctl)" -D "$PG_ROOT/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  [ -n "${PG_ROOT:-}" ] && rm -rf "$PG_ROOT"
  return 0
}
