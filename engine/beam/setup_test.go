package beam

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestSetupShared: Run and the block API (NewBlockExpander, NewDriver)
// check a configuration with one function, so they refuse the same
// configurations: Workers out of range was refused by Run only.
func TestSetupShared(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"fine", Config{BeamWidth: 4, MaxPieces: 1}, true},
		{"no beam", Config{BeamWidth: 0}, false},
		{"beam too wide", Config{BeamWidth: 1 << 24}, false},
		{"negative pieces", Config{BeamWidth: 4, MaxPieces: -1}, false},
		{"negative workers", Config{BeamWidth: 4, MaxPieces: 1, Workers: -1}, false},
		{"too many workers", Config{BeamWidth: 4, MaxPieces: 1, Workers: MaxWorkers + 1}, false},
	} {
		_, errRun := Run(context.Background(), tc.cfg)
		_, errBlock := NewBlockExpander(tc.cfg)
		_, errDriver := NewDriver(tc.cfg)
		for name, err := range map[string]error{"Run": errRun, "NewBlockExpander": errBlock, "NewDriver": errDriver} {
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrConfig)) {
				t.Errorf("%s: %s: %v, want ok %v", tc.name, name, err, tc.ok)
			}
		}
	}
}

// TestSetupWorkersCapped: Workers 0 is GOMAXPROCS, but never more than
// MaxWorkers, the most an explicit value may be.
func TestSetupWorkersCapped(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(MaxWorkers + 500))
	cfg := Config{BeamWidth: 4, MaxPieces: 1}
	if err := setup(&cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Workers != MaxWorkers {
		t.Errorf("GOMAXPROCS %d: %d workers, want %d", MaxWorkers+500, cfg.Workers, MaxWorkers)
	}
}
