package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
	"rsc.io/script"
	"rsc.io/script/scripttest"
)

// asCommand makes the test binary run as the warpbook command (see
// TestMain), so that scripts run it as a real process: its own working
// directory, environment, stdin and exit status.
const asCommand = "WARPBOOK_TEST_AS_COMMAND"

// TestScripts runs each testdata/script/*.txtar: the archive's files are
// unpacked into a fresh directory and its comment is a script for
// rsc.io/script (the language of the go command's own tests) with two more
// commands:
//
//	warpbook [<FILE] ARGS...   run warpbook (stdin from FILE, else empty)
//	status N                   the last warpbook exited with status N
//
// "! warpbook ..." expects a non-zero exit; cmp, grep via stdout/stderr,
// exists and the other default commands check what it did. $WORK is the
// directory.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/script/*.txtar: %v", err)
	}
	exe, err := os.Executable()
	noErr(t, err)
	e := script.NewEngine()
	e.Cmds = scripttest.DefaultCmds()
	e.Conds = scripttest.DefaultConds()
	e.Cmds["warpbook"] = warpbookCmd(exe)
	e.Cmds["status"] = statusCmd()
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			noErr(t, err)
			work := t.TempDir()
			env := []string{
				"WORK=" + work,
				"HOME=" + work,
				"XDG_CACHE_HOME=" + filepath.Join(work, ".cache"),
				"PATH=" + os.Getenv("PATH"),
				"TMPDIR=" + os.TempDir(),
			}
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOCOVERDIR"} {
				if v, ok := os.LookupEnv(k); ok {
					env = append(env, k+"="+v)
				}
			}
			if _, ok := os.LookupEnv("GOCACHE"); !ok {
				// The build cache the go command uses with the real
				// HOME, not an empty one under $WORK: -native builds
				// the engine.
				if d, err := os.UserCacheDir(); err == nil {
					env = append(env, "GOCACHE="+filepath.Join(d, "go-build"))
				}
			}
			s, err := script.NewState(context.Background(), work, env)
			noErr(t, err)
			noErr(t, s.ExtractFiles(ar))
			scripttest.Run(t, e, s, file, bytes.NewReader(ar.Comment))
		})
	}
}

// warpbookCmd runs the test binary as warpbook.
func warpbookCmd(exe string) script.Cmd {
	return script.Command(
		script.CmdUsage{Summary: "run the warpbook command", Args: "[<stdin-file] args..."},
		func(s *script.State, args ...string) (script.WaitFunc, error) {
			cmd := exec.CommandContext(s.Context(), exe, args...)
			if len(args) > 0 && strings.HasPrefix(args[0], "<") {
				in, err := os.ReadFile(s.Path(args[0][1:]))
				if err != nil {
					return nil, err
				}
				cmd = exec.CommandContext(s.Context(), exe, args[1:]...)
				cmd.Stdin = bytes.NewReader(in)
			}
			cmd.Dir = s.Getwd()
			cmd.Env = append(s.Environ(), asCommand+"=1")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				return nil, err
			}
			return func(s *script.State) (string, string, error) {
				err := cmd.Wait()
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					return stdout.String(), stderr.String(), err
				}
				if serr := s.Setenv("WARPBOOK_STATUS", strconv.Itoa(code)); serr != nil {
					return "", "", serr
				}
				if code != 0 {
					err = fmt.Errorf("exit status %d", code)
				}
				return stdout.String(), stderr.String(), err
			}, nil
		})
}

// statusCmd checks the exit status of the last warpbook command.
func statusCmd() script.Cmd {
	return script.Command(
		script.CmdUsage{Summary: "check the exit status of the last warpbook command", Args: "N"},
		func(s *script.State, args ...string) (script.WaitFunc, error) {
			if len(args) != 1 {
				return nil, script.ErrUsage
			}
			got, _ := s.LookupEnv("WARPBOOK_STATUS")
			if got != args[0] {
				return nil, fmt.Errorf("warpbook exited with status %s, want %s", got, args[0])
			}
			return nil, nil
		})
}
