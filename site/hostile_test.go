//go:build unix

package site_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/warpbook/warpbook/site"
	mdpage "github.com/warpbook/warpbook/snippets/page"
	"golang.org/x/tools/txtar"
)

// TestHostile builds every book of testdata/hostile/*.txtar, one class of
// hostile input each, and compares the build's errors with the archive's
// "errors" section (absent: the build must succeed). The other files of
// the archive are the book. Lines of the archive comment that start with a
// keyword shape the book on disk beyond what txtar can hold:
//
//	fifo NAME                     a named pipe
//	symlink NAME TARGET           a symbolic link
//	repeat NAME MARKER N "TEXT"   MARKER in NAME becomes TEXT (a Go string) N times
//
// Each book is built twice, through an os.Root as warpbook build reads a
// book and through os.DirFS, with the same errors. A build that succeeds
// must not publish any file a symbolic link outside the book leads to.
// go test ./site -run Hostile -update rewrites the errors sections.
func TestHostile(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/hostile/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/hostile/*.txtar: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			noErr(t, err)
			dir := filepath.Join(t.TempDir(), "book")
			var want []byte
			hasWant := false
			for _, f := range ar.Files {
				if f.Name == "errors" {
					want, hasWant = f.Data, true
					continue
				}
				writeFile(t, filepath.Join(dir, f.Name), f.Data)
			}
			var outside []string // files links lead to outside the book
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				f := strings.Fields(line)
				if len(f) == 0 {
					continue
				}
				switch {
				case f[0] == "fifo" && len(f) == 2:
					if err := syscall.Mkfifo(filepath.Join(dir, f[1]), 0o644); err != nil {
						t.Skipf("mkfifo: %v", err)
					}
				case f[0] == "symlink" && len(f) == 3:
					p := filepath.Join(dir, f[1])
					noErr(t, os.MkdirAll(filepath.Dir(p), 0o755))
					if err := os.Symlink(f[2], p); err != nil {
						t.Skipf("symlink: %v", err)
					}
					if filepath.IsAbs(f[2]) {
						outside = append(outside, f[2])
					}
				case f[0] == "repeat" && len(f) >= 5:
					n, err1 := strconv.Atoi(f[3])
					text, err2 := strconv.Unquote(strings.Join(f[4:], " "))
					p := filepath.Join(dir, f[1])
					data, err3 := os.ReadFile(p)
					if err := errors.Join(err1, err2, err3); err != nil {
						t.Fatalf("%s: %v", line, err)
					}
					writeFile(t, p, bytes.Replace(data, []byte(f[2]), []byte(strings.Repeat(text, n)), 1))
				}
			}
			root, err := os.OpenRoot(dir)
			noErr(t, err)
			defer root.Close()
			var first []byte
			for _, fsys := range []struct {
				name string
				fs   fs.FS
			}{{"Root", root.FS()}, {"DirFS", os.DirFS(dir)}} {
				s, err := site.Build(context.Background(), fsys.fs, site.Options{Dir: "book"})
				var got bytes.Buffer
				var list mdpage.Diagnostics
				switch {
				case errors.As(err, &list):
					// As every command prints them.
					_ = list.Write(&got)
				case err != nil:
					t.Fatalf("%s: error %T %v, want mdpage.Diagnostics", fsys.name, err, err)
				default:
					for _, o := range outside {
						secret, err := os.ReadFile(o)
						if err != nil || len(bytes.TrimSpace(secret)) == 0 {
							continue
						}
						line, _, _ := bytes.Cut(secret, []byte("\n"))
						for name, data := range s.Files {
							if bytes.Contains(data, line) {
								t.Errorf("%s: %s publishes %s", fsys.name, name, o)
							}
						}
					}
				}
				if first == nil {
					first = got.Bytes()
				} else if !bytes.Equal(first, got.Bytes()) {
					t.Errorf("%s errors differ from Root's:\n%s", fsys.name, udiff.Unified("Root", fsys.name, string(first), got.String()))
				}
			}
			if *update {
				var files []txtar.File
				for _, f := range ar.Files {
					if f.Name != "errors" {
						files = append(files, f)
					}
				}
				if len(first) > 0 {
					files = append(files, txtar.File{Name: "errors", Data: first})
				}
				ar.Files = files
				writeFile(t, file, txtar.Format(ar))
				return
			}
			switch {
			case !hasWant && len(first) > 0:
				t.Errorf("build failed, want success:\n%s", first)
			case hasWant && len(first) == 0:
				t.Errorf("build succeeded, want errors:\n%s", want)
			case !bytes.Equal(want, first):
				t.Errorf("errors differ (go test ./site -run Hostile -update rewrites them):\n%s", udiff.Unified("want", "got", string(want), string(first)))
			}
		})
	}
}

// TestBuildDirHostile: warpbook build hashes the book before building it
// (the stamp's input key). That must not block on a named pipe, read
// /dev/zero or follow a link out of the book either: the build reports
// each file at its path and writes nothing.
func TestBuildDirHostile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "book")
	writeFile(t, filepath.Join(dir, "index.md"), []byte("# Home\n"))
	if err := syscall.Mkfifo(filepath.Join(dir, "x.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.dat"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, target := range map[string]string{"zero.md": "/dev/zero", "leak.md": "/etc/passwd", "zero.dat": "/dev/zero"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("symlink: %v", err)
		}
	}
	root, err := os.OpenRoot(dir)
	noErr(t, err)
	defer root.Close()
	out := filepath.Join(t.TempDir(), "_site")
	_, _, err = site.BuildDir(context.Background(), root.FS(), out, site.Options{Dir: "book"}, false)
	var list mdpage.Diagnostics
	if !errors.As(err, &list) {
		t.Fatalf("BuildDir = %v, want mdpage.Diagnostics", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		"book/leak.md: symbolic link to /etc/passwd leads outside the book; pages and the files they link to must be inside the book",
		"book/x.md: not a regular file (a named pipe)",
		"book/zero.md: symbolic link to /dev/zero leads outside the book; pages and the files they link to must be inside the book",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BuildDir errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the failed build wrote %s (%v)", out, err)
	}
}
