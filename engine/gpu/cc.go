package gpu

import (
	"fmt"
	"strconv"
	"strings"
)

// CC is a CUDA compute capability, such as 8.0 for the A100 or 8.9 for the
// RTX 4090. The major number names the architecture generation; the minor
// number a variant within it.
type CC struct {
	Major int `json:"major"` // architecture generation: 8 in 8.6
	Minor int `json:"minor"` // variant within it: 6 in 8.6
}

// String returns the capability in the usual dotted form, "8.0".
func (c CC) String() string {
	return strconv.Itoa(c.Major) + "." + strconv.Itoa(c.Minor)
}

// SM returns the capability as nvcc's architecture name, "sm_80".
func (c CC) SM() string {
	return "sm_" + strconv.Itoa(c.Major) + strconv.Itoa(c.Minor)
}

// MarshalText writes the capability as "8.0", so JSON holds a string.
func (c CC) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads any form ParseCC accepts.
func (c *CC) UnmarshalText(b []byte) error {
	cc, err := ParseCC(string(b))
	if err != nil {
		return err
	}
	*c = cc
	return nil
}

// Less reports whether c is an older capability than d.
func (c CC) Less(d CC) bool {
	if c.Major != d.Major {
		return c.Major < d.Major
	}
	return c.Minor < d.Minor
}

// ParseCC reads a compute capability written as "8.0", "sm_80", "sm80",
// "compute_80" or "80". In the forms without a dot the last digit is the
// minor number, so "100" and "sm_120" are 10.0 and 12.0.
func ParseCC(s string) (CC, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, prefix := range []string{"compute_", "sm_", "sm"} {
		if strings.HasPrefix(t, prefix) {
			t = t[len(prefix):]
			break
		}
	}
	bad := func() (CC, error) {
		return CC{}, fmt.Errorf("gpu: %q is not a compute capability (want a form like 8.0, sm_80 or sm80)", s)
	}
	if t == "" {
		return bad()
	}
	var major, minor string
	if i := strings.IndexByte(t, '.'); i >= 0 {
		major, minor = t[:i], t[i+1:]
	} else {
		if len(t) < 2 {
			return bad()
		}
		major, minor = t[:len(t)-1], t[len(t)-1:]
	}
	if !allDigits(major) || !allDigits(minor) || len(major) > 2 || len(minor) != 1 {
		return bad()
	}
	ma, _ := strconv.Atoi(major)
	mi, _ := strconv.Atoi(minor)
	return CC{Major: ma, Minor: mi}, nil
}

func allDigits(s string) bool { return s != "" && strings.TrimLeft(s, "0123456789") == "" }
