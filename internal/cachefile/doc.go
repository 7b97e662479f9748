// Package cachefile reads and writes the entries of warpbook's cache (the
// results of snippets, drawn figures, build stamps and the browser
// kernel): small files in the user's cache directory, each named by a
// hash of what it was made from.
//
// # Reading
//
// An entry is read as the book's own files are: [Read] opens only a
// regular file, never through a symbolic link, without blocking (a named
// pipe at an entry's path does not hang a build, a link to /dev/zero does
// not fill memory, a link to /etc/passwd is not read), and at most its
// size limit.
//
// # Trust
//
// What the cache holds is published (a figure's SVG, the browser kernel's
// script) or vouched for (a snippet's verified output), so an entry must
// be one this user's warpbook wrote. Each entry ends with an HMAC-SHA256
// of its name and contents under a key kept outside the cache directory
// ([Key]); [Read] refuses an entry whose tag does not match, and the
// caller makes the entry again. Whoever can write the cache directory but
// not read the key (a cache restored from another machine or CI run,
// another user, a copy of one entry under another's name) cannot make
// an entry that is used.
//
// In WebAssembly (the browser kernel) there is no file system and no
// cache: every [Read] is a miss and every [Write] is dropped, without
// the key, its HMAC or crypto/rand in the module.
package cachefile

import "errors"

// ErrForged is wrapped by [Read]'s error for an entry whose tag does not
// match its name and contents under this user's key.
var ErrForged = errors.New("not an entry this user's warpbook wrote")

// ErrNotRegular is wrapped by [Read]'s error for anything at an entry's
// path but a regular file: a symbolic link, a named pipe, a device, a
// directory.
var ErrNotRegular = errors.New("not a regular file")

// KeyEnv names the environment variable that, when set, is the key of the
// cache's tags (any string; its SHA-256 is the key): what a CI system
// that keeps the cache between runs sets from a secret, so that a run
// without the secret (a pull request's) writes nothing that a run with it
// uses.
const KeyEnv = "WARPBOOK_CACHE_KEY"
