#!/usr/bin/env bash
# `make restore FILE=backups/crewswap-<time>.dump`: puts a `make backup` dump into the
# DATABASE_URL database (made if it does not exist). Each schema in the file REPLACES the one of
# that name (dropped with everything in it, then restored); other schemas are left alone. All in
# one transaction: a restore that fails changes nothing. A database that already holds any of
# those schemas is replaced only with CONFIRM=<its database name>.
set -euo pipefail

file=${1:-}
DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/crewswap}
[ -n "$file" ] && [ -f "$file" ] || { echo "restore: FILE=<a dump from make backup> (got '${file}')" >&2; exit 2; }

database=$(node -e 'console.log(decodeURIComponent(new URL(process.argv[1]).pathname.slice(1)))' "$DATABASE_URL")
admin_url=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/postgres"; console.log(u.toString())' "$DATABASE_URL")
# The schemas the dump holds: its table of contents' SCHEMA entries ("<id>; <oid> <oid> SCHEMA - <name> <owner>").
schemas=$(pg_restore --list "$file" | awk '$4 == "SCHEMA" { print $6 }')
[ -n "$schemas" ] || { echo "restore: $file holds no schema" >&2; exit 2; }

# psql quotes the name (:'name', :"name") only in what it reads, not in -c.
if [ -z "$(psql -X -At -v name="$database" "$admin_url" <<< "SELECT 1 FROM pg_database WHERE datname = :'name'")" ]; then
  psql -X -q -v ON_ERROR_STOP=1 -v name="$database" "$admin_url" <<< 'CREATE DATABASE :"name"'
else
  present=$(psql -X -At "$DATABASE_URL" -c "SELECT nspname FROM pg_namespace WHERE nspname IN ($(printf "'%s'," $schemas | sed 's/,$//'))")
  if [ -n "$present" ] && [ "${CONFIRM:-}" != "$database" ]; then
    echo "restore: database $database already has schemas $(echo $present): they would be replaced by $file." >&2
    echo "restore: to go ahead, run again with CONFIRM=$database" >&2
    exit 3
  fi
fi

{
  for schema in $schemas; do printf 'DROP SCHEMA IF EXISTS "%s" CASCADE;\n' "$schema"; done
  pg_restore --no-owner --no-privileges --file=- "$file"
} | psql -X -q -v ON_ERROR_STOP=1 --single-transaction "$DATABASE_URL" >/dev/null
echo "restore: $file -> database $database (schemas $(echo $schemas))" >&2
