#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on 127.0.0.1 for the store test suite (test/store-targets.test.ts)
# and print its URL. Uses the machine's PostgreSQL binaries (Debian: postgresql-15), installing them
# if missing. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
dir=$(mktemp -d /tmp/mnemolite-ci-pg.XXXXXX)
chmod 777 "$dir"
port=${MNEMOLITE_CI_PG_PORT:-$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
"${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-sync >&2
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >&2
echo "postgres://postgres@127.0.0.1:$port/postgres"
