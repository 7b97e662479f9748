//go:build unix

package page

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFile checks what ReadFile reads and what it refuses, from a
// directory of the operating system (os.DirFS and os.Root, as the tool
// opens a book) and by path.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
	write("page.md", "# Page\n")
	write("sub/img.png", "PNG")
	write("big.md", strings.Repeat("x", 101))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link("page.md", "alias.md")
	link("../page.md", "sub/up.md")
	link("sub", "dir")
	link("/etc/passwd", "leak.md")
	link("../../etc/passwd", "sub/climb.md")
	link("alias.md", "chain.md")
	link("loop2.md", "loop1.md")
	link("loop1.md", "loop2.md")
	link("/dev/zero", "zero.md")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	link(outside, "outdir")

	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, fsys := range []struct {
		name string
		fs   fs.FS
	}{{"DirFS", os.DirFS(dir)}, {"Root", root.FS()}} {
		for _, c := range []struct {
			name, want string // want: the content, or the error's text
			is         error
		}{
			{"page.md", "# Page\n", nil},
			{"alias.md", "# Page\n", nil},
			{"chain.md", "# Page\n", nil},
			{"sub/up.md", "# Page\n", nil},
			{"dir/img.png", "PNG", nil},
			{"big.md", "read big.md: larger than 100 bytes, the limit on a page", ErrInputLimit},
			{"pipe.md", "read pipe.md: not a regular file (a named pipe)", ErrNotRegular},
			{"sub", "read sub: not a regular file (a directory)", ErrNotRegular},
			{"leak.md", "read leak.md: symbolic link to /etc/passwd leads outside the book", ErrOutside},
			{"sub/climb.md", "read sub/climb.md: symbolic link to ../../etc/passwd leads outside the book", ErrOutside},
			{"zero.md", "read zero.md: symbolic link to /dev/zero leads outside the book", ErrOutside},
			{"outdir/secret", "read outdir/secret: symbolic link to " + outside + " leads outside the book", ErrOutside},
			{"loop1.md", "read loop1.md: too many levels of symbolic links", nil},
			{"missing.md", "read missing.md: no such file or directory", fs.ErrNotExist},
		} {
			t.Run(fsys.name+"/"+c.name, func(t *testing.T) {
				data, err := ReadFile(fsys.fs, c.name, 100, "a page")
				switch {
				case err == nil && c.is == nil && !strings.HasPrefix(c.want, "read "):
					if string(data) != c.want {
						t.Errorf("read %q, want %q", data, c.want)
					}
				case err == nil:
					t.Errorf("read %q, want error %q", data, c.want)
				case !strings.HasPrefix(err.Error(), c.want):
					t.Errorf("error %q, want %q", err, c.want)
				case c.is != nil && !errors.Is(err, c.is):
					t.Errorf("error %q is not %v", err, c.is)
				}
			})
		}
	}

	// By path: the caller named the file, so links are followed, but only
	// to a regular file.
	for _, c := range []struct {
		name string
		is   error
	}{
		{"pipe.md", ErrNotRegular},
		{"zero.md", ErrNotRegular},
		{"big.md", ErrInputLimit},
		{"sub", ErrNotRegular},
	} {
		if _, err := ReadFile(nil, filepath.Join(dir, c.name), 100, "a page"); !errors.Is(err, c.is) {
			t.Errorf("ReadFile(nil, %s) = %v, want %v", c.name, err, c.is)
		}
	}
	if data, err := ReadFile(nil, filepath.Join(dir, "alias.md"), 100, "a page"); err != nil || string(data) != "# Page\n" {
		t.Errorf("ReadFile(nil, alias.md) = %q, %v", data, err)
	}
	if _, err := ReadFile(nil, "/dev/zero", MaxPageBytes, "a page"); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
		t.Errorf("ReadFile(nil, /dev/zero) = %v, want a device refused", err)
	}
}
