package arena

import (
	"cmp"
	"context"
	"fmt"
	"html"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/lab"
)

// Result and Arm are engine/arena's, so that a notebook imports only this
// package.
type (
	Result = arena.Result
	Arm    = arena.Arm
)

// Play runs match m. In a notebook a table of the standings is shown and
// updated after every game played (outside one, a progress line per game
// goes to the lab's progress reporter), and cleared at the end: show the
// result with Table.
func Play(m *arena.Match) (*arena.Result, error) {
	total := len(m.Suite.Starts) * len(m.Arms)
	title := func(st *arena.Standings) string {
		return fmt.Sprintf("arena: %s (%s), beam width %s%s · %s of %s games", m.Suite.Spec, m.Suite.ID(),
			lab.Int(int64(m.BeamWidth)), map[bool]string{true: " + quiescence", false: ""}[m.Quiescence], lab.Int(int64(st.Played())), lab.Int(int64(total)))
	}
	var update func(st *arena.Standings)
	var clear func()
	if lab.InNotebook() {
		id := "arena_" + gonbui.UniqueId()
		update = func(st *arena.Standings) {
			t := standingsTable(st, st.Comparisons())
			t.Title = title(st)
			gonbui.UpdateHTML(id, t.HTML())
		}
		clear = func() { gonbui.UpdateHTML(id, "") }
	} else {
		rep := lab.Progress("arena " + m.Suite.Spec)
		update = func(st *arena.Standings) {
			rep.Report(progress.Event{Job: "arena", Stage: "games", Done: int64(st.Played()), Total: int64(total), Unit: "games"})
		}
	}
	user := m.OnGame
	defer func() { m.OnGame = user }()
	played := false
	m.OnGame = func(g arena.Game, st *arena.Standings) {
		played = true
		update(st)
		if user != nil {
			user(g, st)
		}
	}
	res, err := m.Run(context.Background())
	if played && clear != nil {
		clear()
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Spec names a match for a notebook: the file of its games (relative to
// the repository's root; empty: played live and not saved), its arms
// (comma-separated, the baseline first; files they name are relative to
// the repository's root too), suite, beam width and quiescence.
type Spec struct {
	File       string
	Arms       string
	Suite      string
	BeamWidth  int
	Quiescence bool
	// Extra arms, built by the notebook (a network it trained), play after
	// those of Arms.
	Extra []arena.Arm
}

// Study plays the match s names (Play): with a File, the games already in
// it are read and only the missing ones are played and appended, so a
// committed, finished match is read back at once and an unfinished one
// resumes; without, every game is played live. Notebooks pick a small live
// Spec in quick mode and the committed one in full mode:
//
//	res := lab.Must(arena.Study(lab.Pick(quick, full)))
func Study(s Spec) (*arena.Result, error) {
	suite, err := arena.ParseSuite(s.Suite, nil)
	if err != nil {
		return nil, err
	}
	arms, err := arena.ParseArmsIn(lab.RepoRoot(), s.Arms, nil)
	if err != nil {
		return nil, err
	}
	m := &arena.Match{Suite: suite, Arms: append(arms, s.Extra...), BeamWidth: s.BeamWidth, Quiescence: s.Quiescence}
	if s.File != "" {
		m.Out = s.File
		if !strings.HasPrefix(s.File, "/") {
			m.Out = lab.RepoPath(s.File)
		}
	}
	return Play(m)
}

// Load reads a match file of the repository (a path relative to its root,
// or absolute) with the given baseline arm; the arms named in order come
// next, in that order (generations in generation order, whatever order
// they were played in), the file's others after them as they first
// appear (engine/arena.ReadMatch).
func Load(path, baseline string, order ...string) (*arena.Result, error) {
	if !strings.HasPrefix(path, "/") {
		path = lab.RepoPath(path)
	}
	return arena.ReadMatch(path, baseline, order...)
}

// Table shows a result's standings: per arm its games and mean score, and
// for every arm but the baseline the paired difference with its interval,
// wins, losses, ties and the Wilcoxon p (Holm-adjusted too); after a
// sequential stop (Result.WithSequential) "sequential" stands for the
// interval and no p is shown: they would assume games fixed in advance.
func Table(res *arena.Result) *lab.Table {
	t := standingsTable(res.Standings, res.Comparisons())
	h := res.Header
	t.Title = fmt.Sprintf("%s (suite %s, %s starts), beam width %s%s", h.SuiteSpec, h.Suite, lab.Int(int64(h.Starts)), lab.Int(int64(h.BeamWidth)),
		map[bool]string{true: " + quiescence", false: ""}[h.Quiescence])
	return t
}

// Across shows one arm against the same baseline in several match files
// (paths as Load reads them), a row per file: its name, suite, beam
// width and starts, both means, the paired difference with its interval,
// wins, losses, ties and the Wilcoxon p of that file (unadjusted, whatever
// other arms the file holds: Table gives Holm's). It is how one
// comparison reads across widths or suites. A file without the arm or the
// baseline, or played with quiescence where the first file was not (or
// the other way), is an error naming it; so is no file. A file where the
// two never share a start has a row of empty cells.
func Across(baseline, arm string, files ...string) (*lab.Table, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("across: no match file")
	}
	t := lab.NewTable("file", "suite", "beam width", "starts", "baseline mean", "arm mean", "difference", "95% interval", "wins", "losses", "ties", "Wilcoxon p")
	var q bool // the first file's quiescence
	for k, f := range files {
		res, err := Load(f, baseline)
		if err != nil {
			return nil, err
		}
		i := slices.Index(res.Standings.Arms, arm)
		if i < 1 {
			return nil, fmt.Errorf("%s: no arm %q beside the baseline %q", f, arm, baseline)
		}
		h := res.Header
		if k == 0 {
			q = h.Quiescence
			t.Title = fmt.Sprintf("%s (arm) against %s (baseline), %s quiescence", arm, baseline,
				map[bool]string{true: "with", false: "without"}[q])
		} else if h.Quiescence != q {
			return nil, fmt.Errorf("%s: quiescence %v, %s's %v: another comparison", f, h.Quiescence, files[0], q)
		}
		st := res.Standings
		c := stats.Compare(arm, baseline, st.Scores[i], st.Scores[0], 2000, 1, 0.95, nil) // this comparison alone
		if c.N == 0 {
			t.Add(filepath.Base(f), h.SuiteSpec, h.BeamWidth, 0, "", "", "", "", "", "", "", "")
			continue
		}
		t.Add(filepath.Base(f), h.SuiteSpec, h.BeamWidth, c.N, fmt.Sprintf("%.2f", c.MeanBase), fmt.Sprintf("%.2f", c.MeanArm),
			fmt.Sprintf("%+.2f", c.Diff.Estimate), interval(c.Diff), c.Wins, c.Losses, c.Ties, pValue(c.P))
	}
	for i := 2; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	return t, nil
}

// Regime is one comparison to show in both regimes (Regimes): Arm against
// Baseline in Short, a match file of short games (openings), and in the
// deep file; Label, when set, names the row in place of Arm. DeepArm and
// DeepBaseline, when set, are the two evaluations' arm names in the deep
// file where they differ (tuned there, weights:datasets/weights/tuned-03.json
// in an older short file).
type Regime struct {
	Arm, Baseline, Short, Label string
	DeepArm, DeepBaseline       string
}

// Regimes shows comparisons in both regimes, a row per comparison: the arm
// against its baseline in its short-game match file (the file and its beam
// width named) and in the match file deep (mid-game wells), each as the
// paired difference with its 95% interval, wins–losses and the Wilcoxon p
// of that comparison alone (unadjusted, whatever other arms the file
// holds: Table gives each file's Holm). The two regimes are separate
// matches on separate starts, so the row pairs two results, not two games.
// A file without the arm or its baseline is an error naming it.
func Regimes(deep string, rows ...Regime) (*lab.Table, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("regimes: no comparison")
	}
	loaded := map[[2]string]*arena.Result{}
	compare := func(file, arm, baseline string) (stats.Comparison, *arena.Result, error) {
		res, ok := loaded[[2]string{file, baseline}]
		if !ok {
			var err error
			if res, err = Load(file, baseline); err != nil {
				return stats.Comparison{}, nil, err
			}
			loaded[[2]string{file, baseline}] = res
		}
		i := slices.Index(res.Standings.Arms, arm)
		if i < 1 {
			return stats.Comparison{}, nil, fmt.Errorf("%s: no arm %q beside the baseline %q", file, arm, baseline)
		}
		st := res.Standings
		return stats.Compare(arm, baseline, st.Scores[i], st.Scores[0], 2000, 1, 0.95, nil), res, nil
	}
	cells := func(c stats.Comparison) []any {
		if c.N == 0 {
			return []any{0, "", "", ""}
		}
		return []any{c.N, fmt.Sprintf("%+.2f %s", c.Diff.Estimate, interval(c.Diff)), lab.Int(int64(c.Wins)) + "–" + lab.Int(int64(c.Losses)), pValue(c.P)}
	}
	t := lab.NewTable("arm", "baseline", "short games: file (width)", "starts", "difference [95%]", "wins–losses", "p",
		"deep: starts", "difference [95%]", "wins–losses", "p")
	var deepRes *arena.Result
	for _, r := range rows {
		sc, sres, err := compare(r.Short, r.Arm, r.Baseline)
		if err != nil {
			return nil, err
		}
		darm, dbase := cmp.Or(r.DeepArm, r.Arm), cmp.Or(r.DeepBaseline, r.Baseline)
		dc, dres, err := compare(deep, darm, dbase)
		if err != nil {
			return nil, err
		}
		deepRes = dres
		label := r.Label
		if label == "" {
			label = r.Arm
		}
		row := []any{label, r.Baseline, fmt.Sprintf("%s (%s)", filepath.Base(r.Short), lab.Int(int64(sres.Header.BeamWidth)))}
		row = append(row, cells(sc)...)
		t.Add(append(row, cells(dc)...)...)
	}
	h := deepRes.Header
	t.Title = fmt.Sprintf("short games and deep wells: the deep column is %s (%s, %s starts, beam width %s)",
		filepath.Base(deep), h.SuiteSpec, lab.Int(int64(h.Starts)), lab.Int(int64(h.BeamWidth)))
	for i := 3; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	return t, nil
}

func standingsTable(st *arena.Standings, cs []stats.Comparison) *lab.Table {
	stopped := len(cs) > 0 && cs[0].Stopped
	family := len(cs) > 1 && cs[0].FamilyDiff != nil && !stopped
	head := []string{"arm", "games", "mean lines", "difference", intervalHeader(cs)}
	if family {
		head = append(head, familyHeader(cs))
	}
	t := lab.NewTable(append(head, "wins", "losses", "ties", "Wilcoxon p", "Holm p")...)
	blank := func(k int) []any { return make([]any, k) }
	mean, n := st.Mean(0)
	row := []any{st.Arms[0], n, num(mean, n), "baseline"}
	t.Add(append(row, blank(len(head)-4+5)...)...)
	for i, c := range cs {
		mean, n := st.Mean(i + 1)
		if c.N == 0 {
			t.Add(append([]any{c.Arm, n, num(mean, n)}, blank(len(head)-3+5)...)...)
			continue
		}
		if stopped { // after a sequential stop no fixed-sample interval or p applies
			t.Add(c.Arm, n, num(mean, n), fmt.Sprintf("%+.2f", c.Diff.Estimate), "sequential", c.Wins, c.Losses, c.Ties, "–", "–")
			continue
		}
		row := []any{c.Arm, n, num(mean, n), fmt.Sprintf("%+.2f", c.Diff.Estimate), interval(c.Diff)}
		if family {
			row = append(row, familyInterval(c))
		}
		t.Add(append(row, c.Wins, c.Losses, c.Ties, pValue(c.P), pValue(c.PHolm))...)
	}
	for i := 2; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	return t
}

// intervalHeader names the comparisons' own intervals' level (95%).
func intervalHeader(cs []stats.Comparison) string {
	level := 0.95
	if len(cs) > 0 && cs[0].Diff.Level > 0 {
		level = cs[0].Diff.Level
	}
	return strconv.FormatFloat(100*level, 'g', 4, 64) + "% interval"
}

// familyHeader names the level of each interval of a family (stats.Adjust:
// 98.33% for three arms).
func familyHeader(cs []stats.Comparison) string {
	return "family interval (" + strconv.FormatFloat(100*cs[0].FamilyDiff.Level, 'g', 4, 64) + "% each)"
}

func familyInterval(c stats.Comparison) string {
	if c.FamilyDiff == nil {
		return ""
	}
	return interval(*c.FamilyDiff)
}

func num(v float64, n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f", v)
}

func interval(iv stats.Interval) string {
	if math.IsNaN(iv.Lo) {
		return ""
	}
	return fmt.Sprintf("[%+.2f, %+.2f]", iv.Lo, iv.Hi)
}

// pValue is stats.FormatP: two significant figures ("0.0015", not
// "0.001"; 4.6·10⁻⁵), "< 10⁻¹²" below stats.PFloor.
func pValue(p float64) string { return stats.FormatP(p) }

// Verdicts returns one line per comparison with the baseline
// (stats.Comparison.Verdict), as a Markdown list.
func Verdicts(res *arena.Result) lab.Markdown {
	var b strings.Builder
	cs := res.Comparisons()
	for _, c := range cs {
		b.WriteString("- " + mdEscape(c.Verdict()) + "\n")
	}
	if len(cs) > 1 && cs[0].FamilyDiff != nil {
		b.WriteString(fmt.Sprintf("- p-values are Holm-adjusted over the %d comparisons with the baseline (the unadjusted ones are in the table), and the family intervals are at %s each so that together they cover at 95%% (Bonferroni); the verdicts read the adjusted p and the family interval.\n",
			len(cs), strconv.FormatFloat(100*cs[0].FamilyDiff.Level, 'g', 4, 64)+"%"))
	}
	return lab.Markdown(b.String())
}

func mdEscape(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`, "[", `\[`, "<", "&lt;").Replace(html.UnescapeString(s))
}

// Chart draws the paired differences of one arm against the baseline,
// one dot per start, sorted, with the mean difference and its interval as
// a band and zero as a dashed line.
func Chart(res *arena.Result, arm string) (lab.SVG, error) {
	var c *stats.Comparison
	cs := res.Standings.Comparisons()
	for i := range cs {
		if cs[i].Arm == arm {
			c = &cs[i]
		}
	}
	if c == nil || c.N == 0 {
		return "", fmt.Errorf("arena: no paired games of arm %q", arm)
	}
	var d []float64
	for _, x := range c.Diffs {
		if !math.IsNaN(x) {
			d = append(d, x)
		}
	}
	slices.Sort(d)
	p := lab.NewPlot()
	p.Title.Text = fmt.Sprintf("%s − %s, paired by start", c.Arm, c.Baseline)
	p.X.Label.Text = "start (sorted by difference)"
	p.Y.Label.Text = "difference in lines"
	p.Add(plotter.NewGrid())
	n := float64(len(d))
	if !math.IsNaN(c.Diff.Lo) {
		band, err := plotter.NewPolygon(plotter.XYs{{X: 0.5, Y: c.Diff.Lo}, {X: n + 0.5, Y: c.Diff.Lo}, {X: n + 0.5, Y: c.Diff.Hi}, {X: 0.5, Y: c.Diff.Hi}})
		if err != nil {
			return "", err
		}
		band.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x30}
		band.LineStyle.Width = 0
		p.Add(band)
		p.Legend.Add(fmt.Sprintf("mean %+.2f, 95%% interval", c.Diff.Estimate), band)
	}
	mean, err := plotter.NewLine(plotter.XYs{{X: 0.5, Y: c.Diff.Estimate}, {X: n + 0.5, Y: c.Diff.Estimate}})
	if err != nil {
		return "", err
	}
	mean.Color = lab.Palette[0]
	mean.Width = vg.Points(1.5)
	p.Add(mean)
	zero, err := plotter.NewLine(plotter.XYs{{X: 0.5, Y: 0}, {X: n + 0.5, Y: 0}})
	if err != nil {
		return "", err
	}
	zero.Color = color.Gray{Y: 0x60}
	zero.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(zero)
	pts := make(plotter.XYs, len(d))
	for i, x := range d {
		pts[i] = plotter.XY{X: float64(i + 1), Y: x}
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return "", err
	}
	sc.Color = lab.Palette[1]
	sc.Radius = vg.Points(3)
	p.Add(sc)
	p.Legend.Add("one start", sc)
	p.Legend.Top = true
	p.Legend.Left = true
	p.X.Min, p.X.Max = 0, n+1
	lo, hi := min(d[0], c.Diff.Lo, 0), max(d[len(d)-1], c.Diff.Hi, 0)
	if math.IsNaN(lo) || math.IsNaN(hi) {
		lo, hi = min(d[0], 0), max(d[len(d)-1], 0)
	}
	pad := math.Max(1, (hi-lo)*0.08)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	return lab.PlotSVG(p, 0, 0)
}

// Scores shows every game's score: one row per start, one column per arm.
func Scores(res *arena.Result) *lab.Table {
	st := res.Standings
	t := lab.NewTable(append([]string{"start"}, st.Arms...)...)
	for s := 0; s < st.Starts; s++ {
		row := []any{s}
		for a := range st.Arms {
			if v := st.Scores[a][s]; math.IsNaN(v) {
				row = append(row, "")
			} else {
				row = append(row, int(v))
			}
		}
		t.Add(row...)
	}
	return t
}
