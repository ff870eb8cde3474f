#!/usr/bin/env bash
# Installs the pinned Renovate and the Node it needs (Renovate 44 wants Node 24; capiform itself supports 20)
# into a cache folder outside the repository, for test/renovate-extract.test.ts. Renovate is far too big to be a
# devDependency. Idempotent: a complete install (marked by .complete) is reused.
#
#   scripts/install-renovate.sh          # installs, prints the folder
#   CAPIFORM_TEST_TOOLS=/some/dir ...    # another cache root
set -euo pipefail

RENOVATE_VERSION=44.121.2
NODE_VERSION=24.21.0

root="${CAPIFORM_TEST_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/capiform-test-tools}"
dir="$root/renovate-$RENOVATE_VERSION-node-$NODE_VERSION"

if [[ -f "$dir/.complete" ]]; then
  echo "$dir"
  exit 0
fi

rm -rf "$dir.partial"
mkdir -p "$dir.partial"
# A package.json of its own so npm installs here and never walks up into a project.
printf '{ "name": "capiform-test-tools", "private": true }\n' >"$dir.partial/package.json"
# Saved into that package.json (exact versions), so a later npm command there keeps them.
npm install --prefix "$dir.partial" --no-audit --no-fund --save-exact --loglevel=error \
  "renovate@$RENOVATE_VERSION" "node@$NODE_VERSION" >&2
"$dir.partial/node_modules/.bin/node" --version >/dev/null
rm -rf "$dir"
mv "$dir.partial" "$dir"
touch "$dir/.complete"
echo "$dir"
