#!/bin/sh
# Builds the oracle offline from Debian's Go packages (golang-go, golang-github-masterminds-sprig-dev,
# golang-github-evanphx-json-patch-dev, golang-k8s-kube-openapi-dev, golang-k8s-sigs-yaml-dev) in GOPATH mode.
# Debian installs versioned modules without their /vN suffix, so a small overlay GOPATH links the suffixed import paths.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/.build"
src=/usr/share/gocode/src
for pkg in github.com/Masterminds/sprig github.com/evanphx/json-patch/v5 k8s.io/kube-openapi sigs.k8s.io/yaml; do
  if [ ! -d "$src/$pkg" ]; then
    echo "oracle: $src/$pkg is missing; install: apt-get install -y golang-go golang-github-masterminds-sprig-dev golang-github-evanphx-json-patch-dev golang-k8s-kube-openapi-dev golang-k8s-sigs-yaml-dev" >&2
    exit 2
  fi
done
mkdir -p "$out/gopath/src/github.com/Masterminds/sprig" "$out/gopath/src/github.com/Masterminds/semver"
ln -sfn "$src/github.com/Masterminds/sprig" "$out/gopath/src/github.com/Masterminds/sprig/v3"
ln -sfn "$src/github.com/Masterminds/semver" "$out/gopath/src/github.com/Masterminds/semver/v3"
cd "$here"
GO111MODULE=off GOPATH="$out/gopath:/usr/share/gocode" GOCACHE="$out/gocache" GOFLAGS= go build -o "$out/oracle" .
echo "$out/oracle"
