#!/usr/bin/env bash
# The Debian packages the dev projects' observation needs (evaluation: docs/eval.md), as root:
# each dev source package's build dependencies (`apt-get build-dep`: its jars land in
# /usr/share/maven-repo and /usr/share/java, where the classpath fallback looks) and its own
# binary library packages (the packaged build of exactly its version, which a project whose
# sources do not compile alone is compiled against: jackson-core's generated PackageVersion, ini4j's
# code this JDK rejects; and test jars such as libguava-testlib-java). Without the latter, on
# 2026-12-02, 67.8% of the report prefixes ran instead of 83.5% (jackson-core 3 of 45, ini4j none).
# A package that cannot be installed is named and skipped.
# usage: scripts/dev_environment.sh [LIST]   (default: ../shared/corpus/dev-packages.txt)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$here/../shared/corpus/dev-packages.txt}
export DEBIAN_FRONTEND=noninteractive
if ! grep -qs 'deb-src' /etc/apt/sources.list.d/debian.sources; then
  sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
fi
apt-get update -q > /dev/null
failed=0
while read -r package; do
  [ -z "$package" ] || [ "${package:0:1}" = "#" ] && continue
  apt-get build-dep -y -q "$package" > /dev/null 2>&1 || { echo "build-dep failed: $package"; failed=1; }
  binaries=$(apt-cache showsrc "$package" | awk '/^Binary:/ { sub(/^Binary: /, ""); print; exit }' \
    | tr ',' '\n' | tr -d ' ' | grep -v -- '-doc$')
  # shellcheck disable=SC2086
  [ -n "$binaries" ] && { apt-get install -y -q $binaries > /dev/null 2>&1 || { echo "install failed: $package ($binaries)"; failed=1; }; }
done < "$list"
exit $failed
