#!/usr/bin/env bash
# `make backup`: one pg_dump (custom format) of every service's schema in the DATABASE_URL
# database, into backups/crewswap-<UTC time>.dump (BACKUP_DIR to change the folder); prints the
# file. A service's schema is one holding its migrations table (knex_migrations): each service
# migrates its own (services/<name>/src/migrate.ts), so a new service is in the next backup.
set -euo pipefail

DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/crewswap}
BACKUP_DIR=${BACKUP_DIR:-backups}

schemas=$(psql -X -At -v ON_ERROR_STOP=1 "$DATABASE_URL" -c \
  "SELECT table_schema FROM information_schema.tables WHERE table_name = 'knex_migrations' ORDER BY 1")
if [ -z "$schemas" ]; then
  echo "backup: no service schema in $DATABASE_URL (nothing has migrated there: make up first)" >&2
  exit 1
fi

mkdir -p "$BACKUP_DIR"
file="$BACKUP_DIR/crewswap-$(date -u +%Y%m%dT%H%M%SZ).dump"
args=()
for schema in $schemas; do args+=("--schema=$schema"); done
# Owners and grants left out: the dump restores into any database as whoever runs the restore.
pg_dump --format=custom --no-owner --no-privileges "${args[@]}" --file="$file.partial" "$DATABASE_URL"
mv "$file.partial" "$file"
echo "backup: schemas $(echo $schemas) -> $file" >&2
echo "$file"
