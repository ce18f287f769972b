package classic

import (
	"math"
	"testing"
)

// TestReadmeFit reproduces tetr-ai's own fit on its published means
// (h = 5..17) and its predictions for heights 18..20.
func TestReadmeFit(t *testing.T) {
	var hs []int
	var means, medians []float64
	for _, p := range TetrAIPublished {
		hs = append(hs, p.Rows)
		means = append(means, p.Mean)
		medians = append(medians, p.Median)
	}
	f, err := FitLogQuadratic(hs, means)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-2.565434, 1.202692, -0.005154}
	for i, w := range want {
		if math.Abs(f.Coef[i]-w) > 1e-6 {
			t.Errorf("coef %d = %.7f, want %.6f", i, f.Coef[i], w)
		}
		if !(f.StdErr[i] > 0) {
			t.Errorf("stderr %d = %v", i, f.StdErr[i])
		}
	}
	for h, w := range TetrAIPredicted {
		p := PredictHeight(f, h)
		if math.Abs(p.Lines/w-1) > 1e-6 {
			t.Errorf("h=%d: %.2f, want %.2f", h, p.Lines, w)
		}
		if !(p.PILo < p.CILo && p.CILo < p.Lines && p.Lines < p.CIHi && p.CIHi < p.PIHi) {
			t.Errorf("h=%d intervals %+v", h, p)
		}
	}
	if p := PredictHeight(f, 20); math.Round(p.Lines/1e5)/10 != 273.5 {
		t.Errorf("h=20: %.1fM, want 273.5M", p.Lines/1e6)
	}
	fm, err := FitLogQuadratic(hs, medians)
	if err != nil {
		t.Fatal(err)
	}
	if p := PredictHeight(fm, 20); math.Abs(p.Lines-205418770.34)/p.Lines > 1e-6 {
		t.Errorf("median fit h=20: %.2f", p.Lines)
	}
}
