#!/bin/sh
# Rebuilds site/assets/minisearch.js, the search library the site vendors,
# from the npm registry: MiniSearch (https://github.com/lucaong/minisearch),
# MIT licence, pinned to one version and checked against the registry's
# integrity hash. The site loads the file from its own folder; nothing is
# fetched at run time. TestVendoredMiniSearch checks that the file is the
# one this script writes (its sha256 below).
#
#   sh site/minisearch.sh      # from the repository root; needs npm
set -eu
VERSION=7.2.0
INTEGRITY=sha512-dqT2XBYUOZOiC5t2HRnwADjhNS2cecp9u+TJRiJ1Qp/f5qjkeT5APcGPjHw+bz89Ms8Jp+cG4AlE+QZ/QnDglg==
SHA256=cb4a17cefbecd706391b0cce1cb92bb51084ae29028b8ebbf499b3fc7669fdfb

cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "minisearch@$VERSION" >/dev/null)
tgz="$tmp/minisearch-$VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
	echo "minisearch $VERSION: integrity $got, want $INTEGRITY" >&2
	exit 1
fi
tar -xzf "$tgz" -C "$tmp"
{
	echo "/* MiniSearch $VERSION (https://github.com/lucaong/minisearch), MIT licence: see minisearch.LICENSE.txt."
	echo "   Vendored unchanged but for this comment and the source map line by site/minisearch.sh. */"
	grep -v '^//# sourceMappingURL=' "$tmp/package/dist/umd/index.js"
} >assets/minisearch.js
cp "$tmp/package/LICENSE.txt" assets/minisearch.LICENSE.txt
sum=$(sha256sum assets/minisearch.js | cut -d' ' -f1)
if [ "$SHA256" != "$sum" ]; then
	echo "assets/minisearch.js has sha256 $sum; the script pins $SHA256 (update SHA256 after a version change)" >&2
	exit 1
fi
