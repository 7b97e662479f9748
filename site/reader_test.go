package site_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site"
)

// The vendored search library is the file site/minisearch.sh writes from
// the npm registry (a hand edit fails here), and the site ships it with
// its licence.
func TestVendoredMiniSearch(t *testing.T) {
	script, err := os.ReadFile("minisearch.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^SHA256=([0-9a-f]{64})$`).FindSubmatch(script)
	if m == nil {
		t.Fatal("minisearch.sh pins no SHA256")
	}
	data, err := os.ReadFile("assets/minisearch.js")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != string(m[1]) {
		t.Errorf("assets/minisearch.js has sha256 %s; minisearch.sh writes %s: run sh site/minisearch.sh", got, m[1])
	}
	s := build(t, book("a.md", "# A\n"), site.Options{})
	if !strings.Contains(string(s.Files["assets/minisearch.LICENSE.txt"]), "Permission is hereby granted") {
		t.Error("the site lacks MiniSearch's licence")
	}
	if string(s.Files["assets/minisearch.js"]) != string(data) {
		t.Error("the site lacks assets/minisearch.js")
	}
}
