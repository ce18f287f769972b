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
