#!/bin/sh
# Rebuilds site/assets/editor.js, the live book's code editor, from the npm
# registry: the exact versions pinned in package.json and package-lock.json,
# bundled and minified by esbuild, with the licences of every package in the
# bundle collected in site/assets/editor.LICENSE.txt. Needs node and npm; the
# site itself never loads anything from the network.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund >/dev/null
out=../../site/assets
npx esbuild entry.js --bundle --minify --format=iife --target=es2020 \
	--legal-comments=none --metafile=meta.json --outfile=editor.js >/dev/null
{
	printf '/* warpbook editor: CodeMirror 6 with Go, bundled by tools/editor/build.sh from:'
	node -e 'const l=require("./package-lock.json").packages; const m=require("./meta.json"); const seen=new Set(); for (const f of Object.keys(m.inputs)) { const x=f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/); if (x && !seen.has(x[1])) { seen.add(x[1]); } } console.log([...seen].sort().map(p=>" "+p+"@"+l["node_modules/"+p].version).join(",")+". Licences: editor.LICENSE.txt. */")'
	cat editor.js
} > "$out/editor.js"
node -e '
const fs=require("fs"); const m=require("./meta.json"); const l=require("./package-lock.json").packages;
const seen=new Set(); for (const f of Object.keys(m.inputs)) { const x=f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/); if (x) seen.add(x[1]); }
let out="Licences of the packages bundled into editor.js (tools/editor/build.sh).\n";
for (const p of [...seen].sort()) {
  const dir="node_modules/"+p; const lic=fs.readdirSync(dir).find(f=>/^licen[cs]e/i.test(f));
  out+="\n==== "+p+"@"+l[dir].version+" ("+(l[dir].license||"see below")+")\n\n"+(lic?fs.readFileSync(dir+"/"+lic,"utf8").trim():"(no licence file in the package)")+"\n";
}
fs.writeFileSync(process.argv[1], out);' "$out/editor.LICENSE.txt"
rm -f editor.js meta.json
