package worker

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// userHZ is the unit of the CPU times in /proc/PID/stat: Linux reports
// them in USER_HZ ticks, 100 a second on every architecture Go supports.
const userHZ = 100

// readUsage returns the CPU time (user and system, all threads) and the
// resident memory of process pid, and whether they could be read.
func readUsage(pid int) (cpu time.Duration, rss int64, ok bool) {
	if pid <= 0 {
		return 0, 0, false
	}
	p := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(p + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// The command name, in parentheses, may hold spaces: fields are
	// counted after its closing parenthesis. utime and stime are fields 14
	// and 15 of the line, the 12th and 13th after it.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0, 0, false
	}
	ut, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	st, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	statm, err := os.ReadFile(p + "/statm")
	if err != nil {
		return 0, 0, false
	}
	m := bytes.Fields(statm)
	if len(m) < 2 {
		return 0, 0, false
	}
	pages, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return time.Duration(ut+st) * time.Second / userHZ, pages * int64(os.Getpagesize()), true
}
