package classic

import (
	"strings"
	"testing"
)

// TestCheckSweep: every bad setting of a sweep command is refused with one
// line naming it; good settings give the named agent.
func TestCheckSweep(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rows        []int
		cols, seeds int
		agent, out  string
		wantErr     string
		wantAgent   string
	}{
		{"good", []int{8, 5}, 10, 3, "tetr-ai", "x.csv", "", "tetr-ai"},
		{"no rows", nil, 10, 3, "tetr-ai", "x.csv", "--rows", ""},
		{"seeds 0", []int{8}, 10, 0, "tetr-ai", "x.csv", "--seeds 0 out of range 1..100", ""},
		{"seeds over the cap", []int{8}, 10, 101, "tetr-ai", "x.csv", "--seeds 101 out of range 1..100", ""},
		{"no out", []int{8}, 10, 3, "tetr-ai", "", "--out", ""},
		{"bad rules", []int{1}, 10, 3, "tetr-ai", "x.csv", "--rows: rows 1", ""},
		{"a bad later height", []int{8, 40}, 10, 3, "tetr-ai", "x.csv", "--rows: rows 40", ""},
		{"bad agent", []int{8}, 10, 3, "nobody", "x.csv", "nobody", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := CheckSweep(tc.rows, tc.cols, tc.seeds, 100, tc.agent, tc.out)
			if tc.wantAgent != "" {
				if err != nil || a == nil || a.Name() != tc.wantAgent {
					t.Fatalf("agent %v, error %v; want %s", a, err, tc.wantAgent)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error")
			}
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q: want one line containing %q", err, tc.wantErr)
			}
		})
	}
}
