// Package gen0 makes a generation-0 NNUE network without training: a
// network fitted by plain least squares (gonum) to the hand-made
// evaluation's values on wells sampled from a beam, so that a beam can run
// with NNUE before any GoMLX training exists.
//
// Data: a master beam with the hand-made evaluation (Config.BeamWidth,
// quiescence optional) from the empty well; at every level PerLevel kept
// wells are drawn (seeded, without replacement), and each drawn well and
// every live outcome of the piece the AI (Mild) sends into it is a sample,
// once (duplicates dropped, first occurrence kept). The target is the hand
// value of the well at score 0, i.e. without its score term. A tenth of the
// samples (by a hash of the well) is held out for validation.
//
// Fit, in three least-squares steps:
//  1. a ridge-regularised linear model of the target on the active
//     features' counts (the MaxFeatures most frequent features seen at
//     least MinCount times; the others get weight 0), solved with a
//     Cholesky factorisation of the normal equations;
//  2. hidden unit 0 carries that linear model, scaled so that its
//     pre-activation stays within +-0.8 on the training wells (hardtanh is
//     then the identity there); units 1..H-1 are seeded random projections
//     of the features (|W1| <= 0.05, |B1| <= 0.5);
//  3. the output layer (W2, B2) by least squares on the hidden values; if
//     the random units do not lower the validation error, they get output
//     weight 0 and only unit 0 is used.
//
// Targets are normalised to [-1, 1] over the training samples, and the
// network's ScoreWeight is the hand-made evaluation's value of a line in
// those units (the engine adds it per line scored, quiescence lines
// included at full weight, where the hand-made evaluation counts them
// half).
package gen0

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/progress"
)

// Config describes a generation-0 fit.
type Config struct {
	// Rules is the geometry (nil: the real game's 10x20, bar 4).
	Rules *hatetris.Rules
	// BeamWidth is the master beam's width (wells kept per level).
	BeamWidth int
	// Quiescence turns on the master beam's quiescence lookahead.
	Quiescence bool
	// Weights are the hand-made weights the master beam plays and the
	// network is fitted to (nil: dnf86, eval.DefaultWeights).
	Weights *eval.Weights
	// MaxPieces stops the master beam (0: until it dies).
	MaxPieces int
	// PerLevel is the number of kept wells drawn per level.
	PerLevel int
	// Variant and Hidden shape the network (Hidden 0: 32).
	Variant nnue.Variant
	Hidden  int
	// MinCount and MaxFeatures bound the fitted features (0: 3 and 3000).
	MinCount, MaxFeatures int
	// Ridge is added to the normal equations' diagonal (0: 1).
	Ridge float64
	// Seed seeds the draws and the random units.
	Seed uint64
	// Workers for the master beam (0: GOMAXPROCS; no effect on results).
	Workers int
	// Progress receives the master beam's events.
	Progress progress.Reporter
}

// Report describes a fit. Errors are in the hand-made evaluation's units.
type Report struct {
	Levels       int     `json:"levels"`
	BeamScore    int     `json:"beam_score"`
	Samples      int     `json:"samples"`
	Train        int     `json:"train"`
	Valid        int     `json:"valid"`
	Fitted       int     `json:"fitted_features"`
	TargetMin    float64 `json:"target_min"`
	TargetMax    float64 `json:"target_max"`
	LinearRMSE   float64 `json:"linear_valid_rmse"`
	TrainRMSE    float64 `json:"train_rmse"`
	ValidRMSE    float64 `json:"valid_rmse"`
	ValidR2      float64 `json:"valid_r2"`
	RandomUnits  bool    `json:"random_units_used"`
	Int16MaxErr  float64 `json:"int16_max_abs_error"`
	Int16Bound   float64 `json:"int16_error_bound"`
	QA           int     `json:"qa"`
	QB           int     `json:"qb"`
	SameOrder    float64 `json:"int16_identical_child_orderings"`
	HandPairs    float64 `json:"valid_child_pairs_ordered_as_hand"`
	OrderParents int     `json:"ordering_parents"`
	Seconds      float64 `json:"seconds"`
}

type sample struct {
	well   hatetris.Well
	y      float64
	parent bool
	valid  bool
}

// Check reports, in one line, a configuration Fit would refuse: a beam
// width or wells per level below 1, negative max pieces, a hidden size
// out of 1..nnue.MaxHidden, negative feature bounds, a ridge that is not
// a finite number >= 0 (0: the default 1).
func (c Config) Check() error {
	switch {
	case c.BeamWidth < 1 || c.PerLevel < 1:
		return fmt.Errorf("gen0: beam width %d and wells per level %d must be at least 1", c.BeamWidth, c.PerLevel)
	case c.MaxPieces < 0:
		return fmt.Errorf("gen0: max pieces %d is negative", c.MaxPieces)
	case c.Hidden < 0 || c.Hidden > nnue.MaxHidden:
		return fmt.Errorf("gen0: hidden size %d out of range 1..%d", c.Hidden, nnue.MaxHidden)
	case c.MinCount < 0 || c.MaxFeatures < 0:
		return fmt.Errorf("gen0: min count %d and max features %d must not be negative (0: the defaults)", c.MinCount, c.MaxFeatures)
	case !(c.Ridge >= 0) || math.IsInf(c.Ridge, 0):
		return fmt.Errorf("gen0: ridge %g must be a finite number >= 0", c.Ridge)
	}
	if c.Weights != nil {
		if err := c.Weights.Check(); err != nil {
			return fmt.Errorf("gen0: %v", err)
		}
	}
	return nil
}

// Fit runs the master beam, samples, fits and returns the network (float;
// the engine quantises it) with its report.
func Fit(ctx context.Context, cfg Config) (*nnue.Network, *Report, error) {
	t0 := time.Now()
	if err := cfg.Check(); err != nil {
		return nil, nil, err
	}
	if cfg.Rules == nil {
		cfg.Rules = hatetris.Standard()
	}
	r := cfg.Rules
	if cfg.Hidden == 0 {
		cfg.Hidden = 32
	}
	if cfg.MinCount == 0 {
		cfg.MinCount = 3
	}
	if cfg.MaxFeatures == 0 {
		cfg.MaxFeatures = 3000
	}
	if cfg.Ridge == 0 {
		cfg.Ridge = 1
	}
	fs, err := nnue.NewFeatureSet(cfg.Variant, r.Width, r.Depth-r.Bar)
	if err != nil {
		return nil, nil, err
	}
	w := eval.DefaultWeights()
	if cfg.Weights != nil {
		w = *cfg.Weights
	}
	hand := eval.NewHand(w)
	rep := &Report{}
	// 1. Master beam and draws.
	parents, err := drawParents(ctx, cfg, hand, rep)
	if err != nil {
		return nil, nil, err
	}
	// 2. Samples: drawn wells and their children, deduplicated.
	samples := collect(r, hand, parents, rep)
	if rep.Train < 10 || rep.Valid < 2 {
		return nil, nil, errors.New("gen0: too few samples (widen the beam or draw more wells per level)")
	}
	// 3. The fit.
	n, err := fit(cfg, fs, samples, rep)
	if err != nil {
		return nil, nil, err
	}
	n.ScoreWeight = -hand.W.Score / ((rep.TargetMax - rep.TargetMin) / 2)
	if err := check(r, n, hand, parents, rep); err != nil {
		return nil, nil, err
	}
	rep.Seconds = time.Since(t0).Seconds()
	return n, rep, nil
}

// drawParents runs the master beam and draws PerLevel kept wells per
// level (seeded by the level, without replacement).
func drawParents(ctx context.Context, cfg Config, hand *eval.Hand, rep *Report) ([]hatetris.Well, error) {
	var parents []hatetris.Well
	res, err := beam.Run(ctx, beam.Config{Rules: cfg.Rules, BeamWidth: cfg.BeamWidth, Quiescence: cfg.Quiescence, MaxPieces: cfg.MaxPieces,
		Eval: hand, Workers: cfg.Workers, Progress: cfg.Progress,
		OnKept: func(depth int, wells []hatetris.Well, _ []int) error {
			rng := rand.New(rand.NewPCG(cfg.Seed, uint64(depth)))
			idx := rng.Perm(len(wells))
			for _, i := range idx[:min(cfg.PerLevel, len(idx))] {
				parents = append(parents, wells[i])
			}
			rep.Levels = depth
			return nil
		}})
	if err != nil {
		return nil, err
	}
	rep.BeamScore = res.Score
	return parents, nil
}

// collect returns the drawn wells and the live outcomes of the AI's piece
// in each, once each (first occurrence kept), valued by the hand-made
// evaluation at score 0, and counts them in rep.
func collect(r *hatetris.Rules, hand *eval.Hand, parents []hatetris.Well, rep *Report) []sample {
	hw := hand.NewHandWorker(r)
	g := hatetris.NewGenerator(r)
	seen := map[hatetris.Well]bool{}
	var samples []sample
	add := func(w *hatetris.Well, parent bool) {
		if seen[*w] {
			return
		}
		seen[*w] = true
		samples = append(samples, sample{well: *w, y: hw.Evaluate(w, 0, 0), parent: parent, valid: isValid(w)})
	}
	var buf []hatetris.Outcome
	for i := range parents {
		add(&parents[i], true)
		_, buf = g.Move(&parents[i], hatetris.Mild, nil, buf[:0])
		for k := range buf {
			if !buf[k].GameOver {
				add(&buf[k].Well, false)
			}
		}
	}
	rep.Samples = len(samples)
	for _, s := range samples {
		if s.valid {
			rep.Valid++
		}
	}
	rep.Train = rep.Samples - rep.Valid
	return samples
}

// isValid puts a tenth of the wells, by a hash, in the validation set.
func isValid(w *hatetris.Well) bool { return nnue.HeldOut(w[:]) }

// counts returns the fitted columns and counts of a well's features.
func counts(fs *nnue.FeatureSet, col map[int32]int, w *hatetris.Well, r *hatetris.Rules, buf []int32) (cols []int, cnt []float64, feats []int32) {
	feats = fs.Append(buf[:0], w[r.Bar:r.Depth])
	m := map[int]float64{}
	for _, f := range feats {
		if c, ok := col[f]; ok {
			m[c]++
		}
	}
	for c := range m {
		cols = append(cols, c)
	}
	sort.Ints(cols)
	for _, c := range cols {
		cnt = append(cnt, m[c])
	}
	return cols, cnt, feats
}

// fit makes the network from the samples: the linear model, unit 0 and
// the random units, then the output layer.
func fit(cfg Config, fs *nnue.FeatureSet, samples []sample, rep *Report) (*nnue.Network, error) {
	chosen, err := chooseFeatures(cfg, fs, samples, rep)
	if err != nil {
		return nil, err
	}
	col := map[int32]int{}
	for i, f := range chosen {
		col[f] = i
	}
	u, err := linearFit(cfg, fs, samples, col)
	if err != nil {
		return nil, err
	}
	n, err := hiddenLayer(cfg, fs, samples, chosen, col, u, rep)
	if err != nil {
		return nil, err
	}
	if err := outputLayer(cfg, fs, samples, n, rep); err != nil {
		return nil, err
	}
	return n, nil
}

// chooseFeatures returns the fitted features, sorted: the MaxFeatures
// most frequent (ties by index) of those seen at least MinCount times in
// the training samples; it sets the targets' range in rep.
func chooseFeatures(cfg Config, fs *nnue.FeatureSet, samples []sample, rep *Report) ([]int32, error) {
	r := cfg.Rules
	freq := map[int32]int{}
	buf := make([]int32, 0, fs.Active())
	rep.TargetMin, rep.TargetMax = math.Inf(1), math.Inf(-1)
	for i := range samples {
		s := &samples[i]
		if s.valid {
			continue
		}
		rep.TargetMin, rep.TargetMax = min(rep.TargetMin, s.y), max(rep.TargetMax, s.y)
		buf = fs.Append(buf[:0], s.well[r.Bar:r.Depth])
		for _, f := range buf {
			freq[f]++
		}
	}
	if rep.TargetMax <= rep.TargetMin {
		return nil, errors.New("gen0: every target is equal")
	}
	var chosen []int32
	for f, c := range freq {
		if c >= cfg.MinCount {
			chosen = append(chosen, f)
		}
	}
	sort.Slice(chosen, func(i, j int) bool {
		if freq[chosen[i]] != freq[chosen[j]] {
			return freq[chosen[i]] > freq[chosen[j]]
		}
		return chosen[i] < chosen[j]
	})
	chosen = chosen[:min(len(chosen), cfg.MaxFeatures)]
	slices.Sort(chosen)
	rep.Fitted = len(chosen)
	return chosen, nil
}

// linearFit solves the ridge-regularised normal equations of the target
// on the fitted features' counts (Cholesky; no ridge on the intercept)
// and returns the coefficients, the intercept last.
func linearFit(cfg Config, fs *nnue.FeatureSet, samples []sample, col map[int32]int) (*mat.VecDense, error) {
	r := cfg.Rules
	buf := make([]int32, 0, fs.Active())
	d := len(col) + 1 // + intercept
	ata := mat.NewSymDense(d, nil)
	aty := mat.NewVecDense(d, nil)
	raw := ata.RawSymmetric()
	for i := range samples {
		s := &samples[i]
		if s.valid {
			continue
		}
		cols, cnt, _ := counts(fs, col, &s.well, r, buf)
		cols, cnt = append(cols, d-1), append(cnt, 1)
		for a, ca := range cols {
			aty.SetVec(ca, aty.AtVec(ca)+cnt[a]*s.y)
			for b := a; b < len(cols); b++ {
				raw.Data[ca*raw.Stride+cols[b]] += cnt[a] * cnt[b]
			}
		}
	}
	for i := 0; i < d-1; i++ {
		raw.Data[i*raw.Stride+i] += cfg.Ridge
	}
	raw.Data[(d-1)*raw.Stride+d-1] += 1e-9
	var ch mat.Cholesky
	if ok := ch.Factorize(ata); !ok {
		return nil, errors.New("gen0: normal equations are not positive definite")
	}
	var u mat.VecDense
	if err := ch.SolveVecTo(&u, aty); err != nil {
		return nil, fmt.Errorf("gen0: %v", err)
	}
	return &u, nil
}

// hiddenLayer returns the network with its first layer: unit 0 carries
// the linear model u, scaled so that its pre-activation stays within
// +-0.8 on the training wells; units 1..H-1 are seeded random
// projections. It sets the linear model's validation RMSE in rep.
func hiddenLayer(cfg Config, fs *nnue.FeatureSet, samples []sample, chosen []int32, col map[int32]int, u *mat.VecDense, rep *Report) (*nnue.Network, error) {
	r := cfg.Rules
	buf := make([]int32, 0, fs.Active())
	d := len(chosen) + 1
	c0 := u.AtVec(d - 1)
	ym, ys := (rep.TargetMax+rep.TargetMin)/2, (rep.TargetMax-rep.TargetMin)/2
	lin := func(s *sample) float64 {
		cols, cnt, _ := counts(fs, col, &s.well, r, buf)
		z := c0
		for a, c := range cols {
			z += u.AtVec(c) * cnt[a]
		}
		return z
	}
	big, sse, nv := 0.0, 0.0, 0
	for i := range samples {
		z := lin(&samples[i])
		if samples[i].valid {
			sse += (z - samples[i].y) * (z - samples[i].y)
			nv++
		} else {
			big = max(big, math.Abs(z-ym)/ys)
		}
	}
	rep.LinearRMSE = math.Sqrt(sse / float64(nv))
	k0 := max(big, 1e-9) / 0.8
	n, err := nnue.NewNetwork(fs, cfg.Hidden, nnue.HardTanh)
	if err != nil {
		return nil, err
	}
	for i, f := range chosen {
		n.Row(f)[0] = float32(u.AtVec(i) / (ys * k0))
	}
	n.B1[0] = float32((c0 - ym) / (ys * k0))
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6e6e7565))
	for f := 0; f < fs.Count(); f++ {
		row := n.Row(int32(f))
		for j := 1; j < cfg.Hidden; j++ {
			row[j] = float32((2*rng.Float64() - 1) * 0.05)
		}
	}
	for j := 1; j < cfg.Hidden; j++ {
		n.B1[j] = float32(2*rng.Float64()-1) * 0.5
	}
	return n, nil
}

// outputLayer fits W2 and B2 by least squares on the hidden values, with
// every unit and with unit 0 alone, keeps the one with the lower
// validation error and sets the errors and R² in rep.
func outputLayer(cfg Config, fs *nnue.FeatureSet, samples []sample, n *nnue.Network, rep *Report) error {
	r := cfg.Rules
	buf := make([]int32, 0, fs.Active())
	hid := make([][]float64, len(samples))
	acc := make([]float64, cfg.Hidden)
	for i := range samples {
		feats := fs.Append(buf[:0], samples[i].well[r.Bar:r.Depth])
		n.PreActivations(feats, acc)
		h := make([]float64, cfg.Hidden)
		for j, a := range acc {
			h[j] = n.Activation.Apply(a)
		}
		hid[i] = h
	}
	ym, ys := (rep.TargetMax+rep.TargetMin)/2, (rep.TargetMax-rep.TargetMin)/2
	norm := func(y float64) float64 { return (y - ym) / ys }
	best := math.Inf(1)
	var bestW []float64
	for _, units := range []int{cfg.Hidden, 1} {
		w, err := outputLS(samples, hid, units, norm)
		if err != nil {
			continue
		}
		if e := rmse(samples, hid, w, units, true, norm) * ys; e < best {
			best, bestW = e, w
			rep.RandomUnits = units > 1
		}
	}
	if bestW == nil {
		return errors.New("gen0: output least squares failed")
	}
	units := len(bestW) - 1
	for j := range n.W2 {
		n.W2[j] = 0
		if j < units {
			n.W2[j] = float32(bestW[j])
		}
	}
	n.B2 = float32(bestW[units])
	rep.ValidRMSE = best
	rep.TrainRMSE = rmse(samples, hid, bestW, units, false, norm) * ys
	// R² on validation.
	mean, cnt := 0.0, 0
	for _, s := range samples {
		if s.valid {
			mean += s.y
			cnt++
		}
	}
	mean /= float64(cnt)
	sst := 0.0
	for _, s := range samples {
		if s.valid {
			sst += (s.y - mean) * (s.y - mean)
		}
	}
	rep.ValidR2 = 1 - best*best*float64(cnt)/sst
	return nil
}

// outputLS fits y ~ W2[:units] . hidden[:units] + B2 on the training
// samples (normal equations, tiny ridge) and returns W2 then B2.
func outputLS(samples []sample, hid [][]float64, units int, norm func(float64) float64) ([]float64, error) {
	d := units + 1
	ata := mat.NewSymDense(d, nil)
	aty := mat.NewVecDense(d, nil)
	x := make([]float64, d)
	for i, s := range samples {
		if s.valid {
			continue
		}
		copy(x, hid[i][:units])
		x[units] = 1
		y := norm(s.y)
		for a := 0; a < d; a++ {
			aty.SetVec(a, aty.AtVec(a)+x[a]*y)
			for b := a; b < d; b++ {
				ata.SetSym(a, b, ata.At(a, b)+x[a]*x[b])
			}
		}
	}
	for a := 0; a < d; a++ {
		ata.SetSym(a, a, ata.At(a, a)+1e-6)
	}
	var ch mat.Cholesky
	if !ch.Factorize(ata) {
		return nil, errors.New("not positive definite")
	}
	var w mat.VecDense
	if err := ch.SolveVecTo(&w, aty); err != nil {
		return nil, err
	}
	return w.RawVector().Data[:d:d], nil
}

func rmse(samples []sample, hid [][]float64, w []float64, units int, valid bool, norm func(float64) float64) float64 {
	sse, n := 0.0, 0
	for i, s := range samples {
		if s.valid != valid {
			continue
		}
		p := w[units]
		for j := 0; j < units; j++ {
			p += w[j] * hid[i][j]
		}
		e := p - norm(s.y)
		sse += e * e
		n++
	}
	return math.Sqrt(sse / float64(max(n, 1)))
}

// check quantises n and measures, on the children of the validation
// parents: the largest |int16 - float| value, the share of parents whose
// children the int16 and float networks order identically, and the share
// of child pairs ordered as the hand-made evaluation orders them.
func check(r *hatetris.Rules, n *nnue.Network, hand *eval.Hand, parents []hatetris.Well, rep *Report) error {
	q, err := nnue.Quantize(n, 0, 0)
	if err != nil {
		return err
	}
	rep.Int16Bound = q.ErrorBound()
	rep.QA, rep.QB = q.Scales()
	g := hatetris.NewGenerator(r)
	hw := hand.NewHandWorker(r)
	a := q.NewAccumulator()
	var buf []hatetris.Outcome
	same, pairs, agree := 0, 0, 0
	for i := range parents {
		if !isValid(&parents[i]) {
			continue
		}
		_, buf = g.Move(&parents[i], hatetris.Mild, nil, buf[:0])
		var fv, hv []float64
		var qv []int64
		for k := range buf {
			if buf[k].GameOver {
				continue
			}
			rows := buf[k].Well[r.Bar:r.Depth]
			f := n.Evaluate(rows)
			q.Refresh(a, rows)
			o := q.Output(a)
			rep.Int16MaxErr = max(rep.Int16MaxErr, math.Abs(f-float64(o)*q.Scale()))
			fv, qv = append(fv, f), append(qv, o)
			hv = append(hv, hw.Evaluate(&buf[k].Well, 0, 0))
		}
		if len(fv) < 2 {
			continue
		}
		rep.OrderParents++
		fo, qo := order(len(fv), func(x, y int) bool { return fv[x] > fv[y] }), order(len(qv), func(x, y int) bool { return qv[x] > qv[y] })
		if slices.Equal(fo, qo) {
			same++
		}
		for x := range hv {
			for y := x + 1; y < len(hv); y++ {
				if hv[x] == hv[y] {
					continue
				}
				pairs++
				if (hv[x] > hv[y]) == (qv[x] > qv[y]) {
					agree++
				}
			}
		}
	}
	rep.SameOrder = float64(same) / float64(max(rep.OrderParents, 1))
	rep.HandPairs = float64(agree) / float64(max(pairs, 1))
	return nil
}

// order returns 0..n-1 sorted by less, ties by index.
func order(n int, less func(x, y int) bool) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	sort.SliceStable(o, func(i, j int) bool { return less(o[i], o[j]) })
	return o
}
