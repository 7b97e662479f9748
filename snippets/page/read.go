package page

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/warpbook/warpbook/snippets/internal/bytesize"
)

// Limits on the files the tool reads. A file past one is refused with an
// error that names the limit (see [ErrInputLimit]); nothing reads without bound.
const (
	// MaxPageBytes is the largest Markdown page (and SUMMARY.md) the tool
	// reads: 1 MiB, about 25 times the book's longest chapter.
	MaxPageBytes = 1 << 20
	// MaxAssetBytes is the largest other file of a book (an image, a data
	// file a page links to, book.yaml) the site reads: 32 MiB.
	MaxAssetBytes = 32 << 20
)

// Errors wrapped by what [ReadFile] and [DecodeYAML] refuse; callers
// branch on them with [errors.Is].
var (
	// ErrInputLimit: an input passed one of the limits on what the tool
	// reads and decodes: size, nesting, alias expansion ([MaxPageBytes],
	// [MaxYAMLBytes], ...). (The kernel's ErrLimit is a snippet's own use of
	// memory or output.)
	ErrInputLimit = errors.New("input over its limit")
	// ErrNotRegular: the path is a directory, a named pipe, a device or a
	// socket, not a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrOutside: a symbolic link leads outside the book.
	ErrOutside = errors.New("leads outside the book")
)

// limitError is an input past a limit; it is [ErrInputLimit] for errors.Is.
type limitError struct{ msg string }

func (e *limitError) Error() string        { return e.msg }
func (e *limitError) Is(target error) bool { return target == ErrInputLimit }

func limitf(format string, args ...any) error {
	return &limitError{fmt.Sprintf(format, args...)}
}

// ReadFile reads the regular file name, of at most max bytes, from fsys;
// from the operating system's file system (name a path) when fsys is nil.
// what names the kind of file for the message of a file past max ("a
// page"). The error is an [*fs.PathError] whose Err wraps [ErrNotRegular],
// [ErrInputLimit] or [ErrOutside] when ReadFile refuses the file:
//
//   - anything but a regular file (a directory, a named pipe, a device, a
//     socket), which it never reads: a named pipe does not block it and
//     /dev/zero does not fill memory;
//   - a file larger than max bytes, of which it reads max+1 at most;
//   - in fsys, a symbolic link that leads outside fsys (an absolute target,
//     or one that climbs above fsys's root), even when fsys itself would
//     follow it. Links that stay inside fsys are followed.
//
// An fs.FS gives no way to open without blocking, so with fsys a named
// pipe swapped in between ReadFile's stat and its open could still block;
// with a nil fsys the file is opened non-blocking and checked once open.
func ReadFile(fsys fs.FS, name string, max int64, what string) ([]byte, error) {
	var f fs.File
	if fsys == nil {
		of, err := os.OpenFile(name, os.O_RDONLY|openNonblock, 0)
		if err != nil {
			return nil, err
		}
		f = of
	} else {
		real, err := ResolveLinks(fsys, name)
		if err != nil {
			return nil, err
		}
		fi, err := fs.Stat(fsys, real)
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPath(err)}
		}
		if err := regular(fi, max, what); err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if f, err = fsys.Open(real); err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPath(err)}
		}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPath(err)}
	}
	if err := regular(fi, max, what); err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPath(err)}
	}
	if int64(len(data)) > max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: tooLarge(max, what)}
	}
	return data, nil
}

// regular checks that fi is a regular file of at most max bytes.
func regular(fi fs.FileInfo, max int64, what string) error {
	m := fi.Mode()
	if !m.IsRegular() {
		kind := "an irregular file"
		switch {
		case m.IsDir():
			kind = "a directory"
		case m&fs.ModeNamedPipe != 0:
			kind = "a named pipe"
		case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
			kind = "a device"
		case m&fs.ModeSocket != 0:
			kind = "a socket"
		case m&fs.ModeSymlink != 0:
			kind = "a symbolic link"
		}
		return fmt.Errorf("%w (%s)", ErrNotRegular, kind)
	}
	if fi.Size() > max {
		return tooLarge(max, what)
	}
	return nil
}

func tooLarge(max int64, what string) error {
	return limitf("larger than %s, the limit on %s", bytesize.Format(max), what)
}

// unwrapPath drops the *fs.PathError around err, so that ReadFile's own
// names the path once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// maxLinks bounds the symbolic links followed for one name, as the
// kernel's own limit does (40 on Linux).
const maxLinks = 40

// ResolveLinks returns name with every symbolic link in it followed, as a
// path inside fsys, or an error when a link leads outside fsys (it wraps
// [ErrOutside]) or the links loop. A fsys that cannot read links is taken
// as it is. [ReadFile] reads through it; so does the site's walk of a
// book, into a directory that is a link inside the book.
func ResolveLinks(fsys fs.FS, name string) (string, error) {
	if _, ok := fsys.(fs.ReadLinkFS); !ok {
		return name, nil
	}
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	todo := strings.Split(name, "/")
	done := "."
	for links := 0; len(todo) > 0; {
		elem := todo[0]
		todo = todo[1:]
		if elem == "." {
			continue
		}
		next := path.Join(done, elem)
		fi, err := fs.Lstat(fsys, next)
		if err != nil {
			return "", &fs.PathError{Op: "read", Path: name, Err: unwrapPath(err)}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if links++; links > maxLinks {
			return "", &fs.PathError{Op: "read", Path: name, Err: errors.New("too many levels of symbolic links")}
		}
		target, err := fs.ReadLink(fsys, next)
		if err != nil {
			return "", &fs.PathError{Op: "read", Path: name, Err: unwrapPath(err)}
		}
		joined := path.Join(done, target)
		if path.IsAbs(target) || joined == ".." || strings.HasPrefix(joined, "../") {
			return "", &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("symbolic link to %s %w", target, ErrOutside)}
		}
		todo = append(strings.Split(joined, "/"), todo...)
		done = "."
	}
	return done, nil
}
