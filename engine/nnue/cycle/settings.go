package cycle

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// Settings are the settings a cycle's folder was made with (cycle.json):
// every one that changes a stage's output, by its hatelab flag (the JSON
// key). A run on the folder with other settings is refused, naming the
// first flag that differs; Generations, Workers and the guards that only
// stop a run (Collapse) may change. A cycle.json of an older version,
// keyed by the flags' former names (master-width, target-width), is read
// as the same settings (readSettings).
type Settings struct {
	Rules           string  `json:"rules"`
	MasterBeamWidth int     `json:"master-beam-width"`
	MasterPieces    int     `json:"master-pieces"`
	MasterOpenings  int     `json:"master-openings,omitempty"`
	MasterDeep      int     `json:"master-deep,omitempty"`
	MasterDeepMin   int     `json:"master-deep-min,omitempty"`
	MasterDeepGames string  `json:"master-deep-games,omitempty"`
	NoQuiescence    bool    `json:"no-quiescence"`
	Samples         int     `json:"samples"`
	Stratify        bool    `json:"stratify"`
	Children        float64 `json:"children,omitempty"`
	TargetBeamWidth int     `json:"target-beam-width"`
	TargetPieces    int     `json:"target-pieces"`
	TargetRule      string  `json:"target-rule"`
	TargetScale     string  `json:"target-scale"`
	KeepScoreWeight bool    `json:"keep-score-weight,omitempty"`
	Teacher         string  `json:"teacher,omitempty"`
	ShiftCheck      int     `json:"shift-check"`
	Epochs          int     `json:"epochs"`
	Batch           int     `json:"batch"`
	LR              float64 `json:"lr"`
	Patience        int     `json:"patience"`
	Clamp           float64 `json:"clamp"`
	RankWeight      float64 `json:"rank-weight,omitempty"`
	TrainSeed       uint64  `json:"train-seed"`
	Seed            uint64  `json:"seed"`
}

// settings returns cfg's settings (after Run's defaults).
func settings(cfg Config) Settings {
	tc := cfg.Train
	or := func(v, d int) int {
		if v == 0 {
			return d
		}
		return v
	}
	orf := func(v, d float64) float64 {
		if v == 0 {
			return d
		}
		return v
	}
	r := cfg.Rules
	return Settings{
		Rules: fmt.Sprintf("%dx%d bar %d", r.Width, r.Depth, r.Bar), MasterBeamWidth: cfg.MasterBeamWidth, MasterPieces: cfg.MasterPieces, MasterOpenings: cfg.MasterOpenings,
		MasterDeep: cfg.MasterDeep, MasterDeepMin: cfg.MasterDeepMin, MasterDeepGames: gamesSetting(cfg.MasterDeepGames),
		NoQuiescence: cfg.NoQuiescence, Samples: cfg.Samples, Stratify: cfg.Stratify, Children: cfg.Children, TargetBeamWidth: cfg.TargetBeamWidth,
		TargetPieces: cfg.TargetPieces, TargetRule: cfg.TargetRule.String(), TargetScale: cfg.TargetScale, KeepScoreWeight: cfg.KeepScoreWeight, Teacher: teacherSetting(cfg), ShiftCheck: cfg.ShiftCheck,
		Epochs: or(tc.MaxEpochs, train.DefaultMaxEpochs), Batch: or(tc.Batch, train.DefaultBatch),
		LR: orf(tc.LearningRate, train.DefaultLearningRate), Patience: or(tc.Patience, train.DefaultPatience),
		Clamp: orf(tc.Clamp, train.DefaultClamp), RankWeight: tc.RankWeight, TrainSeed: tc.Seed, Seed: cfg.Seed,
	}
}

// gamesSetting is a --master-deep-games file's path and the SHA-256 of
// its content (its first 12 hex digits), so that a folder is refused to
// a file of the same name but other games; "" without one. A file that
// cannot be read is named so (Check has refused it before any work).
func gamesSetting(path string) string {
	if path == "" {
		return ""
	}
	b, err := boundedfile.ReadFile(path, arena.MaxGamesFile, "games file")
	if err != nil {
		return path + " (unreadable)"
	}
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%s (sha256 %x)", path, sum[:6])
}

// teacherSetting is the teacher's spec and, in brackets, its evaluation's
// name (weights and files' checksums included), so that a folder is
// refused to a teacher of the same spec but other content (an edited
// weights file, another embedded best network); "" without a teacher.
func teacherSetting(cfg Config) string {
	if cfg.Teacher == nil {
		return ""
	}
	return cfg.TeacherSpec + " (" + cfg.Teacher.Name() + ")"
}

// SettingsError is a run refused because its folder was made with other
// settings (or another start network, or its samples with another
// provenance): the user's input, not a failure of the run.
type SettingsError struct{ Msg string }

func (e *SettingsError) Error() string { return e.Msg }

// Diff names the first setting in which s (this run's) differs from was
// (the folder's), as a one-line error; nil if none.
func (s Settings) Diff(was Settings) error {
	a, b := reflect.ValueOf(s), reflect.ValueOf(was)
	for i := 0; i < a.NumField(); i++ {
		if x, y := a.Field(i).Interface(), b.Field(i).Interface(); x != y {
			if x == "" {
				x = "(none)"
			}
			if y == "" {
				y = "(none)"
			}
			flag, _, _ := strings.Cut(a.Type().Field(i).Tag.Get("json"), ",") // "children,omitempty": --children
			return &SettingsError{fmt.Sprintf("--%s %v differs from the %v this folder was made with: use the same value or another --dir", flag, x, y)}
		}
	}
	return nil
}

// checkSettings compares cfg's settings with Dir/cycle.json, or writes
// that file on a folder's first run. A folder of an older version (no
// cycle.json) is checked stage by stage (the samples' provenance) and
// then given one.
func checkSettings(cfg Config) error {
	path := filepath.Join(cfg.Dir, "cycle.json")
	now := settings(cfg)
	var was Settings
	if _, err := os.Stat(path); err == nil {
		b, err := boundedfile.ReadFile(path, 1<<20, "settings file")
		if boundedfile.IsRefused(err) {
			return &SettingsError{fmt.Sprintf("%s %v", path, err)}
		}
		if err != nil {
			return err
		}
		if was, err = readSettings(b); err != nil {
			return &SettingsError{fmt.Sprintf("%s: %v", path, err)}
		}
		return now.Diff(was)
	}
	return store(path, now)
}

// readSettings decodes a cycle.json: nothing unknown, and the keys of an
// older version (master-width, target-width, the flags' names before
// issue 27 gave beam widths one name) read as the new ones. A file that
// gives a setting under both names with different values is refused.
func readSettings(b []byte) (Settings, error) {
	var v struct {
		Settings
		OldMasterBeamWidth *int `json:"master-width"`
		OldTargetBeamWidth *int `json:"target-width"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return Settings{}, err
	}
	s := v.Settings
	for _, o := range []struct {
		old, name string
		was       *int
		now       *int
	}{
		{"master-width", "master-beam-width", v.OldMasterBeamWidth, &s.MasterBeamWidth},
		{"target-width", "target-beam-width", v.OldTargetBeamWidth, &s.TargetBeamWidth},
	} {
		if o.was == nil {
			continue
		}
		if *o.now != 0 && *o.now != *o.was {
			return Settings{}, fmt.Errorf("%q %d and %q %d (its former name) differ", o.name, *o.now, o.old, *o.was)
		}
		*o.now = *o.was
	}
	return s, nil
}
