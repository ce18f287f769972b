package progress

import "testing"

func TestFuncAndOr(t *testing.T) {
	var got []Event
	var r Reporter = Func(func(e Event) { got = append(got, e) })
	Or(r).Report(Event{Job: "j", Done: 3, Total: 10})
	if len(got) != 1 || got[0].Done != 3 || got[0].Total != 10 || got[0].Job != "j" {
		t.Errorf("Func did not pass the event through: %+v", got)
	}
	Or(nil).Report(Event{Finished: true}) // a nil reporter discards: no panic
	if len(got) != 1 {
		t.Errorf("events reached the wrong reporter: %+v", got)
	}
}

func TestRanges(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{IntRange(3, 7), "3..7"},
		{IntRange(0, 0), "0"},
		{IntRange(-2, 5), "-2..5"},
		{FloatRange(1.94, 1.86, 1), "1.9"},
		{FloatRange(1.2, 1.9, 1), "1.2..1.9"},
		{FloatRange(0.5, 0.5, 2), "0.50"},
		{Range("a", "b"), "a..b"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
