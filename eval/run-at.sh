#!/usr/bin/env bash
# Run the quality benchmark against the library as committed at REV (default HEAD), using the
# eval/ folder of the working tree. Other work in progress in src/ does not leak into the numbers.
#
#   bash eval/run-at.sh [REV] [eval/run.ts options...]
#   bash eval/run-at.sh HEAD --json /tmp/eval.json
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rev="HEAD"
if [[ $# -gt 0 && "$1" != --* ]]; then rev="$1"; shift; fi
sha="$(git -C "$root" rev-parse --short "$rev")"
dir="$(mktemp -d "${TMPDIR:-/tmp}/mnemolite-eval-src-XXXXXX")"
trap 'rm -rf "$dir"' EXIT
git -C "$root" archive "$sha" src package.json tsconfig.json | tar -x -C "$dir"
cp -r "$root/eval" "$dir/eval"
ln -s "$root/node_modules" "$dir/node_modules"
cd "$dir"
"$root/node_modules/.bin/tsx" eval/run.ts --cache "$root/bench/.cache/eval" --rev "$sha" "$@"
