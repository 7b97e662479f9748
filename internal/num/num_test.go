package num

import "testing"

func TestNum(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Int(0), "0"}, {Int(999), "999"}, {Int(1000), "1,000"}, {Int(16384), "16,384"}, {Int(-1024), "-1,024"}, {Int(1234567), "1,234,567"},
		{Float(9.24, 2), "9.24"}, {Float(9.2, 2), "9.2"}, {Float(1536, 2), "1,536"}, {Float(1407.2, 1), "1,407.2"},
		{Float(-0.001, 1), "0"}, {Float(221.645, 1), "221.6"}, {Float(-12345.5, 0), "-12,346"}, {Float(0.5, 0), "0"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
