#!/bin/sh
# Rebuilds site/assets/fsrs.js, the spaced-repetition scheduler of the
# practice page, from the npm registry: ts-fsrs
# (https://github.com/open-spaced-repetition/ts-fsrs), MIT licence, the
# FSRS-6 algorithm, pinned to one version and checked against the
# registry's integrity hash. The page loads the file from its own folder;
# nothing is fetched at run time. TestVendoredFSRS checks that the file is
# the one this script writes (its sha256 below).
#
#   sh site/fsrs.sh      # from the repository root; needs npm
set -eu
VERSION=5.4.2
INTEGRITY=sha512-z4qop4pzTcyTzuJ566d9EaX/4bZZzhYfeaPImfVr+xcYT65c5oBgFDijUhCE/D+C78eaolHIhKRZ04/RwF+v2g==
SHA256=3162c1ce82bc498c4867238ccf815f032ba2ed5640ff3f44f13cf74ac1709ae4

cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "ts-fsrs@$VERSION" >/dev/null)
tgz="$tmp/ts-fsrs-$VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
	echo "ts-fsrs $VERSION: integrity $got, want $INTEGRITY" >&2
	exit 1
fi
tar -xzf "$tgz" -C "$tmp"
{
	echo "/* ts-fsrs $VERSION (https://github.com/open-spaced-repetition/ts-fsrs), MIT licence: see fsrs.LICENSE.txt."
	echo "   Vendored unchanged but for this comment and the source map line by site/fsrs.sh. Global: FSRS. */"
	grep -v '^//# sourceMappingURL=' "$tmp/package/dist/index.umd.js"
} >assets/fsrs.js
cp "$tmp/package/LICENSE" assets/fsrs.LICENSE.txt
sum=$(sha256sum assets/fsrs.js | cut -d' ' -f1)
if [ "$SHA256" != "$sum" ]; then
	echo "assets/fsrs.js has sha256 $sum; the script pins $SHA256 (update SHA256 after a version change)" >&2
	exit 1
fi
