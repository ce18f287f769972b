package networks

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/lab"
)

// Dataset is a small training set: wells sampled from one master beam
// and their targets.
type Dataset struct {
	Wells   []hatetris.Well
	Targets []float32
	Samples []train.Sample
	// MasterScore and MasterPieces are the master beam's best game.
	MasterScore, MasterPieces int
	// MasterSeconds and TargetSeconds are the stages' wall times.
	MasterSeconds, TargetSeconds float64
	// Dead counts targets of -1 (the target beam died).
	Dead int
}

// DataConfig describes a dataset.
type DataConfig struct {
	Net *nnue.Network // the evaluation of both beams
	// MasterBeamWidth of the master beam (with quiescence), Samples drawn from
	// its kept wells (reservoir, seeded by Seed), TargetBeamWidth and
	// TargetPieces of the target beams (0: 512 and 10).
	MasterBeamWidth, Samples      int
	TargetBeamWidth, TargetPieces int
	Seed                          uint64
	// Progress, when set, receives the master beam's levels and the
	// target beams' count. Stage, when set instead, is called as each
	// stage starts ("master beam", "target beams") for that stage's
	// reporter (a lab.Sweep's Next: one bar per stage while it runs, so a
	// finished master beam's bar never stands for the target beams).
	Progress progress.Reporter
	Stage    func(name string) progress.Reporter
	// Cache, when set, is a file the dataset is written to, for
	// LoadDataset (a GoNB cell is a program of its own: later cells read
	// what an earlier one built).
	Cache string
}

// CacheDir is a folder for a notebook's intermediate results in this
// clone's scratch folder under the system's temporary folder
// (lab.ScratchPath: two clones never share one).
func CacheDir(name string) string { return lab.ScratchPath(name) }

// Reset empties dir (the first cell of a notebook calls it, so that a run
// never reuses results of older code).
func Reset(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.MkdirAll(dir, 0o755)
}

// maxDataset bounds a dataset cache read back.
const maxDataset = 1 << 30

// LoadDataset reads a dataset that Build wrote to its Cache file.
func LoadDataset(path string) (*Dataset, error) {
	b, err := boundedfile.ReadFile(path, maxDataset, "dataset cache")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("networks: %s %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("networks: %w (run the dataset cell first)", err)
	}
	var ds Dataset
	if err := json.Unmarshal(b, &ds); err != nil {
		return nil, fmt.Errorf("networks: %s: %w", path, err)
	}
	return &ds, nil
}

// Build runs the master beam, samples its kept wells and computes their
// targets, with the stages of a generation of engine/nnue/cycle
// (cycle.Sample, cycle.Targets, cycle.TrainingSet); unlike the cycle it
// keeps repeated wells and runs no beam without quiescence.
func Build(ctx context.Context, cfg DataConfig) (*Dataset, error) {
	if cfg.Net == nil || cfg.MasterBeamWidth < 1 || cfg.Samples < 1 {
		return nil, fmt.Errorf("networks: Build needs a network, a master width and a sample count")
	}
	ev, err := eval.NewNNUE(cfg.Net)
	if err != nil {
		return nil, err
	}
	rr := hatetris.Standard()
	stage := func(name string) progress.Reporter {
		if cfg.Stage != nil {
			return cfg.Stage(name)
		}
		return cfg.Progress
	}
	sf, err := cycle.Sample(ctx, cycle.SampleConfig{Rules: rr, Eval: ev, BeamWidth: cfg.MasterBeamWidth, Quiescence: true,
		Samples: cfg.Samples, Seed: cfg.Seed, Stream: 1, Progress: stage("master beam")})
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Wells: sf.Wells, MasterScore: sf.Score, MasterPieces: sf.Pieces, MasterSeconds: sf.Seconds}
	ts, err := cycle.Targets(ctx, cycle.TargetConfig{Rules: rr, Eval: ev, BeamWidth: cfg.TargetBeamWidth, Pieces: cfg.TargetPieces,
		Progress: stage("target beams"), Job: "target beams"}, ds.Wells)
	if err != nil {
		return nil, err
	}
	ds.Targets, ds.TargetSeconds = ts.Targets, ts.Seconds
	ds.Samples = cycle.TrainingSet(cfg.Net.Features, rr, ds.Wells, ds.Targets)
	for _, t := range ds.Targets {
		if t == -1 {
			ds.Dead++
		}
	}
	if cfg.Cache != "" {
		b, err := json.Marshal(ds)
		if err != nil {
			return nil, err
		}
		if err := atomicfile.WriteBytes(cfg.Cache, 0o644, b); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// LossView is a loss chart that a training run redraws in place after
// every epoch (in a notebook one output, replaced; elsewhere one line of
// text per epoch).
type LossView struct {
	Title  string
	Epochs []train.EpochStats
	id     string
}

// NewLossView returns an empty loss chart.
func NewLossView(title string) *LossView {
	return &LossView{Title: title, id: "loss_" + gonbui.UniqueId()}
}

// OnEpoch records an epoch and redraws the chart (train.Config.OnEpoch).
func (v *LossView) OnEpoch(e train.EpochStats) error {
	v.Epochs = append(v.Epochs, e)
	if !lab.InNotebook() {
		fmt.Fprintf(lab.Stdout, "epoch %d: train MSE %.5f, validation MSE %.5f\n", e.Epoch, e.TrainMSE, e.ValidMSE)
		return nil
	}
	html, err := v.HTML()
	if err != nil {
		return err
	}
	gonbui.UpdateHTML(v.id, html)
	return nil
}

// Series returns the training and validation losses by epoch.
func (v *LossView) Series() []lab.Series {
	tr := lab.Series{Name: "training MSE", Points: true}
	va := lab.Series{Name: "validation MSE", Points: true}
	for _, e := range v.Epochs {
		tr.X, tr.Y = append(tr.X, float64(e.Epoch)), append(tr.Y, e.TrainMSE)
		va.X, va.Y = append(va.X, float64(e.Epoch)), append(va.Y, e.ValidMSE)
	}
	return []lab.Series{tr, va}
}

// HTML draws the chart as an inline image in a block of HTML.
func (v *LossView) HTML() (string, error) {
	p, err := lab.LinePlot(v.Title, "epoch", "mean squared error", v.Series()...)
	if err != nil {
		return "", err
	}
	png, err := lab.PlotPNG(p, 6*vg.Inch, 3.2*vg.Inch)
	if err != nil {
		return "", err
	}
	return `<img style="max-width:100%" src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(png) + `">`, nil
}

// Point is one sample's target and a network's prediction.
type Point struct{ Target, Predicted float64 }

// Predictions runs net (the engine's float network, with the training
// tanh) on the samples.
func Predictions(net *nnue.Network, samples []train.Sample) []Point {
	out := make([]Point, len(samples))
	for i, s := range samples {
		out[i] = Point{float64(s.Target), math.Tanh(net.Forward(s.Feats))}
	}
	return out
}

// Fit summarises predictions: mean squared error and Pearson correlation.
type Fit struct {
	N    int
	MSE  float64 `lab:"MSE,%.4f"`
	Corr float64 `lab:"correlation,%.3f"`
}

// Summarise returns the fit of points.
func Summarise(pts []Point) Fit {
	f := Fit{N: len(pts)}
	if len(pts) == 0 {
		return f
	}
	var mx, my float64
	for _, p := range pts {
		mx += p.Target
		my += p.Predicted
		f.MSE += (p.Target - p.Predicted) * (p.Target - p.Predicted)
	}
	n := float64(len(pts))
	mx, my, f.MSE = mx/n, my/n, f.MSE/n
	var sxy, sxx, syy float64
	for _, p := range pts {
		sxy += (p.Target - mx) * (p.Predicted - my)
		sxx += (p.Target - mx) * (p.Target - mx)
		syy += (p.Predicted - my) * (p.Predicted - my)
	}
	if sxx > 0 && syy > 0 {
		f.Corr = sxy / math.Sqrt(sxx*syy)
	}
	return f
}

// Scatter draws predicted against target for each named set of points
// (one colour each, in the order of names), with the diagonal.
func Scatter(title string, names []string, sets map[string][]Point) (*plot.Plot, error) {
	p := lab.NewPlot()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, "target", "predicted"
	diag, err := plotter.NewLine(plotter.XYs{{X: -1, Y: -1}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	diag.Color = color.Gray{160}
	diag.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(diag)
	for i, k := range names {
		xy := make(plotter.XYs, len(sets[k]))
		for j, q := range sets[k] {
			xy[j] = plotter.XY{X: q.Target, Y: q.Predicted}
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = lab.Palette[i%len(lab.Palette)]
		sc.GlyphStyle.Radius = vg.Points(1.6)
		p.Add(sc)
		p.Legend.Add(k, sc)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1.05, 1.05, -1.05, 1.05
	return p, nil
}

// Window is one 4x3 window pattern of the shared feature set and its
// weight: the sum over hidden units of W2 x the pattern's W1 row, the
// change in the network's output when the pattern is present, as long
// as the hidden units stay in their linear range.
type Window struct {
	Pattern int
	Weight  float64
}

// Windows returns the n window patterns with the highest and the lowest
// weight (liked: highest first; disliked: lowest first). Only shared
// (knewjade) networks have one row per pattern.
func Windows(net *nnue.Network, n int) (liked, disliked []Window, err error) {
	fs := net.Features
	if fs.Variant() != nnue.Shared {
		return nil, nil, fmt.Errorf("networks: windows need a shared network, not %v", fs.Variant())
	}
	base := int32(1) << fs.Width()
	all := make([]Window, 4096)
	for p := range all {
		row := net.Row(base + int32(p))
		var s float64
		for h, w := range row {
			s += float64(w) * float64(net.W2[h])
		}
		all[p] = Window{p, s}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Weight > all[j].Weight })
	n = min(n, len(all))
	liked = append(liked, all[:n]...)
	for i := len(all) - 1; i >= len(all)-n; i-- {
		disliked = append(disliked, all[i])
	}
	return liked, disliked, nil
}

// Filled tells whether cell (x, y) of a window pattern is filled (y = 0
// is the window's top row, x = 0 its left column).
func Filled(pattern, x, y int) bool {
	return pattern>>(3*(3-y))>>(2-x)&1 == 1
}

// WindowStrip draws windows as small 3x4 boards captioned by weight.
func WindowStrip(title string, ws []Window, perRow int) lab.SVG {
	pics := []lab.SVG{}
	for _, w := range ws {
		pat := w.Pattern
		pics = append(pics, lab.Grid{Cols: 3, Rows: 4, Size: 12, Caption: fmt.Sprintf("%+.3f", w.Weight),
			Cell: func(x, y int) lab.Cell {
				if Filled(pat, x, y) {
					return lab.Cell{Fill: "#555"}
				}
				return lab.Cell{}
			}}.SVG())
	}
	return lab.Column(lab.Title(title), lab.Strip(perRow, pics...))
}

// Game is one beam game of an evaluation.
type Game struct {
	Evaluation string
	Width      int
	Quiescence bool
	Score      int
	Pieces     int
	Seconds    float64 `lab:"seconds,%.1f"`
	Source     string
}

// Play runs one beam game from the empty well for each named evaluation
// (a nil network: the hand-made evaluation), width and quiescence.
func Play(ctx context.Context, nets map[string]*nnue.Network, order []string, widths []int, quiescence []bool) ([]Game, error) {
	var out []Game
	for _, name := range order {
		var ev eval.Evaluator = eval.NewHand(eval.DefaultWeights())
		if n := nets[name]; n != nil {
			var err error
			if ev, err = eval.NewNNUE(n); err != nil {
				return nil, err
			}
		}
		for _, w := range widths {
			for _, q := range quiescence {
				res, err := beam.Run(ctx, beam.Config{BeamWidth: w, Quiescence: q, Eval: ev})
				if err != nil {
					return nil, err
				}
				out = append(out, Game{name, w, q, res.Score, res.Pieces, res.Seconds, "run here"})
			}
		}
	}
	return out, nil
}

// PeerGenerations is the peer's generation table at about width 10^6
// with quiescence (generations 0 to 6), as /work/shared/docs/nnue-design.md
// §4 quotes it from the peer's README.
var PeerGenerations = []int{8, 89, 160, 186, 204, 302, 366}

// PeerPlain is the same table without quiescence.
var PeerPlain = []int{4, 26, 41, 69, 87, 91, 123}

// Describe names a network by its header (name, generation, provenance
// cut to n characters).
func Describe(net *nnue.Network, n int) string {
	p := net.Header.Provenance
	if len(p) > n {
		p = p[:n] + "..."
	}
	return strings.TrimSpace(fmt.Sprintf("%s (generation %d, %s, H=%d): %s", net.Header.Name, net.Header.Generation, net.Features, net.Hidden, p))
}

// Split shuffles samples by a seeded permutation and keeps the last
// fraction out: the wells of a reservoir sample are not in random order
// (the first slots hold the early levels' wells unless replaced).
func Split(samples []train.Sample, heldOut float64, seed uint64) (in, out []train.Sample) {
	perm := rand.New(rand.NewPCG(seed, 2)).Perm(len(samples))
	cut := len(samples) - int(float64(len(samples))*heldOut)
	for i, p := range perm {
		if i < cut {
			in = append(in, samples[p])
		} else {
			out = append(out, samples[p])
		}
	}
	return in, out
}
