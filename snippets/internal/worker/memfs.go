package worker

import (
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// MemFS returns a read-only file system that holds files (contents by
// slash path) and the directories above them: the book's package sources
// an interpreter reads, or that the browser kernel is sent. It is
// testing/fstest's MapFS cut to what those need, which keeps that
// package out of the browser kernel.
func MemFS(files map[string]string) fs.FS {
	m := memFS{files: files, dirs: map[string][]string{}}
	seen := map[string]bool{}
	for name := range files {
		for d, base := path.Dir(name), path.Base(name); ; d, base = path.Dir(d), path.Base(d) {
			if !seen[d+"/"+base] {
				seen[d+"/"+base] = true
				m.dirs[d] = append(m.dirs[d], base)
			}
			if d == "." {
				break
			}
		}
	}
	for _, names := range m.dirs {
		slices.Sort(names)
	}
	return m
}

type memFS struct {
	files map[string]string
	dirs  map[string][]string // the names in each directory, sorted
}

func (m memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if src, ok := m.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(src))}, r: strings.NewReader(src)}, nil
	}
	if _, ok := m.dirs[name]; ok || name == "." {
		return &memDir{m: m, name: name}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	names, ok := m.dirs[name]
	if !ok && name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, len(names))
	for i, n := range names {
		p := path.Join(name, n)
		if src, ok := m.files[p]; ok {
			out[i] = fs.FileInfoToDirEntry(memInfo{name: n, size: int64(len(src))})
		} else {
			out[i] = fs.FileInfoToDirEntry(memInfo{name: n, dir: true})
		}
	}
	return out, nil
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	r    *strings.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

type memDir struct {
	m    memFS
	name string
	read int // entries ReadDir returned
}

// ReadDir returns the directory's next n entries (all with n <= 0), as
// fs.ReadDirFile says.
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	all, err := d.m.ReadDir(d.name)
	if err != nil {
		return nil, err
	}
	rest := all[d.read:]
	if n <= 0 {
		d.read = len(all)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.read += len(rest)
	return rest, nil
}

func (d *memDir) Stat() (fs.FileInfo, error) {
	return memInfo{name: path.Base(d.name), dir: true}, nil
}
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: io.EOF}
}
func (d *memDir) Close() error { return nil }
