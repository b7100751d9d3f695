#!/usr/bin/env bash
# Installs code-server (VS Code in the browser) for the end-to-end test, once per machine.
#
# code-server 4.100.3 (VS Code 1.100.3) is the last release that installs on Node 20. Its
# install builds native modules and runs post-install steps that assume a network; this script
# supplies what they need so that it works offline, with only the npm registry reachable:
#   - as root, npm must be told --unsafe-perm, or code-server's postinstall refuses to run;
#   - node-pty's postinstall runs `npx node-gyp`, which asks before fetching unless npm_config_yes;
#   - the `kerberos` module compiles against Debian's libkrb5-dev, and every native module against
#     Node's headers (/usr/include/node, not a download);
#   - @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache
#     ($TMPDIR/vscode-ripgrep-cache-<version>/<asset>) already holds it: we seed it with Debian's rg.
# The result lives outside the repository (default ~/.cache/oracular/code-server-<version>) so
# that fresh clones on the same machine reuse it; an install that did not finish is never reused.
#
# Usage: install-code-server.sh            prints the path of the code-server executable
# Env:   ORACULAR_CODE_SERVER_DIR          where to install (default above)
set -euo pipefail

VERSION=4.100.3
# What code-server 4.100.3's lib/vscode pins (npm-shrinkwrap.json) and the asset its postinstall asks for.
RIPGREP_PACKAGE_VERSION=1.15.11
RIPGREP_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

dir="${ORACULAR_CODE_SERVER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/oracular/code-server-$VERSION}"
bin="$dir/node_modules/.bin/code-server"

fail() { echo "install-code-server: $*" >&2; exit 1; }

if [ -f "$dir/.complete" ] && [ -x "$bin" ]; then
    echo "$bin"
    exit 0
fi

node_major="$(node -p 'process.versions.node.split(".")[0]')" || fail "node is not installed"
[ "$node_major" = 20 ] || fail "code-server $VERSION needs Node 20, found $(node --version)"
[ "$(uname -m)" = x86_64 ] || fail "the seeded ripgrep cache is for x86_64 only, this is $(uname -m)"
rg_path="$(command -v rg)" || fail "ripgrep is missing: apt-get install ripgrep"
[ -f /usr/include/krb5.h ] || [ -f /usr/include/krb5/krb5.h ] || fail "libkrb5-dev is missing: apt-get install libkrb5-dev"

# Native modules compile against Node's headers. node-gyp downloads them unless told where they
# are; Debian's nodejs ships them in /usr/include/node.
if [ -z "${npm_config_nodedir:-}" ] && [ "$(npm config get nodedir 2>/dev/null)" = undefined ] \
    && [ -f /usr/include/node/node.h ]; then
    export npm_config_nodedir=/usr
fi

partial="$dir.partial"
rm -rf "$partial"
mkdir -p "$partial/tmp/vscode-ripgrep-cache-$RIPGREP_PACKAGE_VERSION"
tar -czf "$partial/tmp/vscode-ripgrep-cache-$RIPGREP_PACKAGE_VERSION/$RIPGREP_ASSET" \
    -C "$(dirname "$rg_path")" "$(basename "$rg_path")"
echo '{"name": "oracular-code-server", "private": true}' > "$partial/package.json"

echo "install-code-server: installing code-server@$VERSION into $dir (builds native modules: minutes)" >&2
(
    cd "$partial"
    # --prefix keeps npm from walking up into a surrounding project.
    TMPDIR="$partial/tmp" npm_config_yes=true npm install --prefix "$partial" --unsafe-perm \
        --no-audit --no-fund --loglevel=error "code-server@$VERSION" >&2
) || fail "npm install code-server@$VERSION failed (output above)"

rg_installed="$partial/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"
[ -x "$rg_installed" ] || fail "code-server installed without ripgrep ($rg_installed missing)"
rm -rf "$partial/tmp" "$dir"
mv "$partial" "$dir"
touch "$dir/.complete"
echo "$bin"
