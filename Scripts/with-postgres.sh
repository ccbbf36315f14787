#!/usr/bin/env bash
# Scripts/with-postgres.sh COMMAND…
#
# Starts a private PostgreSQL server (its own data folder in a temporary directory, a
# Unix socket there and a free port on 127.0.0.1, trust authentication for loopback
# only), runs COMMAND with the server's URL in CACHEGEN_POSTGRES_URL, and stops the
# server and deletes its folder when COMMAND ends, fails or is interrupted. Exits with
# COMMAND's status.
#
# PostgreSQL is installed from Debian (`apt-get install postgresql`) when no `pg_ctl` is
# found and we are root; otherwise install it yourself (Debian/Ubuntu: `postgresql`,
# macOS: `brew install postgresql`). The server never runs as root (PostgreSQL refuses):
# as root the script runs it as the `postgres` system user the Debian package creates
# (or CACHEGEN_POSTGRES_USER), otherwise as you. COMMAND always runs as you.
#
# Example: Scripts/with-postgres.sh swift test --package-path Stores/PostgresCacheStore
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGUMENT…]" >&2
  exit 2
fi

find_bin() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
    return
  fi
  # Debian keeps the server's programs off PATH, one folder per major version.
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
  done
}

BIN="$(find_bin || true)"
if [ -z "$BIN" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: PostgreSQL's pg_ctl and initdb are not installed; install PostgreSQL (Debian: apt-get install postgresql)" >&2
    exit 1
  fi
  echo "with-postgres: installing PostgreSQL from Debian" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  BIN="$(find_bin || true)"
  if [ -z "$BIN" ]; then echo "error: PostgreSQL installed, but no pg_ctl found" >&2; exit 1; fi
fi

# Who runs the server, and how to run a command as them.
if [ "$(id -u)" -eq 0 ]; then
  PG_USER="${CACHEGEN_POSTGRES_USER:-postgres}"
  if ! id "$PG_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_USER"
  fi
  as_server() { runuser -u "$PG_USER" -- "$@"; }
else
  as_server() { "$@"; }
fi

DIR="$(mktemp -d "${TMPDIR:-/tmp}/cachegen-postgres.XXXXXX")"
[ "$(id -u)" -eq 0 ] && chown "$PG_USER" "$DIR"
chmod 0700 "$DIR"

stop_server() {
  local status=$?
  if [ -f "$DIR/data/postmaster.pid" ]; then
    as_server "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 \
      || as_server "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$DIR"
  exit "$status"
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
  else
    echo $(( 20000 + RANDOM % 20000 ))
  fi
}

as_server "$BIN/initdb" -D "$DIR/data" -U cachegen --auth=trust -E UTF8 --no-locale --no-sync >"$DIR/initdb.log" 2>&1 \
  || { cat "$DIR/initdb.log" >&2; exit 1; }

# A fresh port on each try: another process may take the one we found before we bind it.
started=""
for _ in 1 2 3 4 5; do
  PORT="$(free_port)"
  # Durability off: the data is thrown away when the command ends.
  if as_server "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null 2>&1; then
    started=1
    break
  fi
done
if [ -z "$started" ]; then
  echo "error: the PostgreSQL server did not start; its log:" >&2
  cat "$DIR/server.log" >&2 || true
  exit 1
fi

export CACHEGEN_POSTGRES_URL="postgres://cachegen@127.0.0.1:$PORT/postgres"
echo "with-postgres: PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') at $CACHEGEN_POSTGRES_URL" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
