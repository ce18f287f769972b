package fit

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// The blog's quadratic of game length against height (width 10, heights
// 2..7): L ≈ 1.393H² − 4.593H + 7.40, 290.5 at H = 16.
func TestBlogQuadratic(t *testing.T) {
	h := []float64{2, 3, 4, 5, 6, 7}
	l := []float64{4, 6, 11, 19, 31, 43}
	f, err := Linear(h, l, Poly(2)...)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{7.40, -4.593, 1.393}
	for j := range want {
		if !near(f.Coef[j], want[j], 2e-3) {
			t.Errorf("coef %d = %v, want %v", j, f.Coef[j], want[j])
		}
	}
	if y, _ := f.Predict(16); !near(y, 290.5, 1e-3) {
		t.Errorf("L(16) = %v, want 290.5", y)
	}
	if f.DoF != 3 || f.Sigma <= 0 || f.R2 < 0.99 {
		t.Errorf("dof %d sigma %v R2 %v", f.DoF, f.Sigma, f.R2)
	}
	y, lo, hi := f.PredictionInterval(16, 0.95)
	_, clo, chi := f.ConfidenceInterval(16, 0.95)
	if !(lo < clo && clo < y && y < chi && chi < hi) {
		t.Errorf("intervals not nested: %v %v %v %v %v", lo, clo, y, chi, hi)
	}
}

// Exact data: zero residuals; the standard errors against a hand-computed
// straight-line case; LOO residuals against refitting without each point.
func TestLinearCases(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		deg  int
	}{
		{"line", []float64{0, 1, 2, 3, 4}, []float64{1, 3.1, 4.9, 7.2, 8.8}, 1},
		{"quad", []float64{1, 2, 3, 4, 5, 6, 7}, []float64{2, 5.5, 9, 17, 26.5, 36, 50}, 2},
		{"cubic", []float64{-2, -1, 0, 1, 2, 3, 4, 5}, []float64{-7, 0.5, 1, 2.2, 9, 28, 64, 125}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Linear(tc.x, tc.y, Poly(tc.deg)...)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.x {
				var xs, ys []float64
				for k := range tc.x {
					if k != i {
						xs, ys = append(xs, tc.x[k]), append(ys, tc.y[k])
					}
				}
				g, err := Linear(xs, ys, Poly(tc.deg)...)
				if err != nil {
					t.Fatal(err)
				}
				pred, _ := g.Predict(tc.x[i])
				if !near(f.LOO[i], tc.y[i]-pred, 1e-8) {
					t.Errorf("LOO[%d] = %v, refit gives %v", i, f.LOO[i], tc.y[i]-pred)
				}
			}
			if tc.deg == 1 {
				// se(slope) = σ/sqrt(Σ(x-x̄)²)
				sxx := 0.0
				for _, x := range tc.x {
					sxx += (x - 2) * (x - 2)
				}
				if !near(f.StdErr[1], f.Sigma/math.Sqrt(sxx), 1e-10) {
					t.Errorf("se slope %v want %v", f.StdErr[1], f.Sigma/math.Sqrt(sxx))
				}
			}
		})
	}
}

func TestLinearErrors(t *testing.T) {
	if _, err := Linear([]float64{1, 2}, []float64{1, 2}, Poly(2)...); err == nil {
		t.Error("want too-few error")
	}
	if _, err := Linear([]float64{1, 1, 1}, []float64{1, 2, 3}, Poly(1)...); err == nil {
		t.Error("want dependent-basis error")
	}
	if _, err := Linear([]float64{1}, []float64{1, 2}, Const); err == nil {
		t.Error("want length error")
	}
	// NaN points are dropped (log of 0).
	f, err := Linear([]float64{1, 2, 3, 4}, Log([]float64{0, math.E, math.E * math.E, math.Exp(3)}), Poly(1)...)
	if err != nil || f.N != 3 || !near(f.Coef[1], 1, 1e-10) {
		t.Errorf("log fit: %v %+v", err, f)
	}
}

func BenchmarkLinearQuadratic(b *testing.B) {
	h := []float64{2, 3, 4, 5, 6, 7}
	l := []float64{4, 6, 11, 19, 31, 43}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Linear(h, l, Poly(2)...); err != nil {
			b.Fatal(err)
		}
	}
}
