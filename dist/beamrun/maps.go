package beamrun

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue/targets"
)

func init() {
	beam.RegisterType(reflect.TypeOf(jobBlock{}))
	beam.RegisterType(reflect.TypeOf(wellBlock{}))
	beam.RegisterDoFn(reflect.TypeOf((*playFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*targetFn)(nil)).Elem())
}

// jobBlock is a block of classic games, written to Out.
type jobBlock struct {
	Jobs []classic.Job
	Out  string
}

// playFn plays a block of classic games and writes their results (JSON).
type playFn struct{ Agent string }

func (f *playFn) ProcessElement(ctx context.Context, b jobBlock) error {
	a, err := classic.NewAgent(f.Agent)
	if err != nil {
		return err
	}
	rules := map[[2]int]*classic.Rules{}
	res := make([]classic.Result, len(b.Jobs))
	for i, j := range b.Jobs {
		k := [2]int{j.Rows, j.Cols}
		if rules[k] == nil {
			if rules[k], err = classic.NewRules(j.Rows, j.Cols); err != nil {
				return err
			}
		}
		res[i] = classic.Play(rules[k], a, j.Seed, 0)
		res[i].Agent = a.Name()
	}
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return writeFile(ctx, b.Out, out)
}

// Sweep plays the classic games jobs with agent as a parallel map over
// blocks of blockJobs games (0: 16) and returns their results in the
// order of jobs: those classic.Sweep finds, whatever the runner.
func Sweep(ctx context.Context, jobs []classic.Job, agent string, work string, blockJobs int, r Runner) ([]classic.Result, error) {
	if _, err := classic.NewAgent(agent); err != nil {
		return nil, inputError{err}
	}
	if work == "" {
		return nil, inputErrorf("beamrun: the Beam engine needs a work folder (--work DIR)")
	}
	if blockJobs <= 0 {
		blockJobs = 16
	}
	var blocks []jobBlock
	for lo := 0; lo < len(jobs); lo += blockJobs {
		blocks = append(blocks, jobBlock{Jobs: jobs[lo:min(lo+blockJobs, len(jobs))], Out: join(work, fmt.Sprintf("classic-%06d.json", len(blocks)))})
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, &playFn{Agent: agent}, beam.CreateList(s, blocks))
	if err := r.Execute(ctx, p); err != nil {
		return nil, err
	}
	var out []classic.Result
	for _, b := range blocks {
		data, err := readFile(ctx, b.Out)
		if err != nil {
			return nil, err
		}
		var rs []classic.Result
		if err := json.Unmarshal(data, &rs); err != nil {
			return nil, err
		}
		if len(rs) != len(b.Jobs) {
			return nil, fmt.Errorf("beamrun: %s: %d results, want %d", b.Out, len(rs), len(b.Jobs))
		}
		out = append(out, rs...)
		removeGlob(ctx, b.Out)
	}
	return out, nil
}

// TargetOptions describe NNUE target beams (see engine/nnue/targets).
type TargetOptions struct {
	WellWidth, WellDepth, Bar int
	// EvalName and Weights choose the evaluation (Evaluator).
	EvalName, Weights string
	// BeamWidth and Pieces of each target beam (0: 512 and 10).
	BeamWidth, Pieces int
}

func (o TargetOptions) config() (targets.Config, error) {
	r, err := hatetris.NewRules(o.WellWidth, o.WellDepth, o.Bar)
	if err != nil {
		return targets.Config{}, inputError{err}
	}
	ev, err := Evaluator(o.EvalName, o.Weights, r)
	if err != nil {
		return targets.Config{}, inputError{err}
	}
	return targets.Config{Rules: r, Eval: ev, BeamWidth: o.BeamWidth, Pieces: o.Pieces, Workers: 1}, nil
}

// wellBlock is a block of wells whose targets go to Out.
type wellBlock struct {
	Wells []hatetris.Well
	Out   string
}

// targetFn computes the targets of a block of wells.
type targetFn struct{ Opt TargetOptions }

func (f *targetFn) ProcessElement(ctx context.Context, b wellBlock) error {
	cfg, err := f.Opt.config()
	if err != nil {
		return err
	}
	ts, err := targets.Compute(ctx, cfg, b.Wells)
	if err != nil {
		return err
	}
	out, err := json.Marshal(ts)
	if err != nil {
		return err
	}
	return writeFile(ctx, b.Out, out)
}

// Targets computes the NNUE training targets of wells as a parallel map
// over blocks of blockWells wells (0: 64): the values targets.Compute
// gives, in the order of wells.
func Targets(ctx context.Context, o TargetOptions, wells []hatetris.Well, work string, blockWells int, r Runner) ([]float32, error) {
	if _, err := o.config(); err != nil {
		return nil, err
	}
	if work == "" {
		return nil, inputErrorf("beamrun: the Beam engine needs a work folder (--work DIR)")
	}
	if blockWells <= 0 {
		blockWells = 64
	}
	var blocks []wellBlock
	for lo := 0; lo < len(wells); lo += blockWells {
		blocks = append(blocks, wellBlock{Wells: slices.Clone(wells[lo:min(lo+blockWells, len(wells))]), Out: join(work, fmt.Sprintf("targets-%06d.json", len(blocks)))})
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, &targetFn{Opt: o}, beam.CreateList(s, blocks))
	if err := r.Execute(ctx, p); err != nil {
		return nil, err
	}
	out := make([]float32, 0, len(wells))
	for _, b := range blocks {
		data, err := readFile(ctx, b.Out)
		if err != nil {
			return nil, err
		}
		var ts []float32
		if err := json.Unmarshal(data, &ts); err != nil {
			return nil, err
		}
		if len(ts) != len(b.Wells) {
			return nil, fmt.Errorf("beamrun: %s: %d targets, want %d", b.Out, len(ts), len(b.Wells))
		}
		out = append(out, ts...)
		removeGlob(ctx, b.Out)
	}
	return out, nil
}
