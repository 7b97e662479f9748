#!/bin/sh
# Rebuilds the JavaScript libraries the site ships in site/assets, from the
# npm registry at the exact versions (and integrity hashes) pinned in
# package.json and package-lock.json; the site itself never loads anything
# from the network. Needs node and npm.
#
#   - editor.js, the live book's code editor: CodeMirror 6 with Go, bundled
#     and minified by esbuild, with the licences of every package in the
#     bundle collected in editor.LICENSE.txt;
#   - minisearch.js, the search library, and fsrs.js, the practice page's
#     spaced-repetition scheduler (ts-fsrs, FSRS-6): each package's UMD
#     file as published, but for a first comment and the source map line.
#
# It writes sha256sums, the three files' hashes, which the site's tests
# check the files against (a hand edit fails there).
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund >/dev/null
out=../../site/assets
npx esbuild entry.js --bundle --minify --format=iife --target=es2020 \
	--legal-comments=none --metafile=meta.json --outfile=editor.js >/dev/null
{
	printf '/* warpbook editor: CodeMirror 6 with Go, bundled by tools/vendor/build.sh from:'
	node -e 'const l=require("./package-lock.json").packages; const m=require("./meta.json"); const seen=new Set(); for (const f of Object.keys(m.inputs)) { const x=f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/); if (x && !seen.has(x[1])) { seen.add(x[1]); } } console.log([...seen].sort().map(p=>" "+p+"@"+l["node_modules/"+p].version).join(",")+". Licences: editor.LICENSE.txt. */")'
	cat editor.js
} > "$out/editor.js"
node -e '
const fs=require("fs"); const m=require("./meta.json"); const l=require("./package-lock.json").packages;
const seen=new Set(); for (const f of Object.keys(m.inputs)) { const x=f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/); if (x) seen.add(x[1]); }
let out="Licences of the packages bundled into editor.js (tools/vendor/build.sh).\n";
for (const p of [...seen].sort()) {
  const dir="node_modules/"+p; const lic=fs.readdirSync(dir).find(f=>/^licen[cs]e/i.test(f));
  out+="\n==== "+p+"@"+l[dir].version+" ("+(l[dir].license||"see below")+")\n\n"+(lic?fs.readFileSync(dir+"/"+lic,"utf8").trim():"(no licence file in the package)")+"\n";
}
fs.writeFileSync(process.argv[1], out);' "$out/editor.LICENSE.txt"
rm -f editor.js meta.json

# vendor PACKAGE FILE LICENCE TITLE NAME URL NOTE copies FILE of PACKAGE to
# NAME.js and its LICENCE to NAME.LICENSE.txt.
vendor() {
	v=$(node -p "require('./node_modules/$1/package.json').version")
	{
		echo "/* $4 $v ($6), MIT licence: see $5.LICENSE.txt."
		echo "   Vendored unchanged but for this comment and the source map line by tools/vendor/build.sh.$7 */"
		grep -v '^//# sourceMappingURL=' "node_modules/$1/$2"
	} >"$out/$5.js"
	cp "node_modules/$1/$3" "$out/$5.LICENSE.txt"
}
vendor minisearch dist/umd/index.js LICENSE.txt MiniSearch minisearch https://github.com/lucaong/minisearch ""
vendor ts-fsrs dist/index.umd.js LICENSE ts-fsrs fsrs https://github.com/open-spaced-repetition/ts-fsrs " Global: FSRS."
(cd "$out" && sha256sum editor.js fsrs.js minisearch.js) >sha256sums
