package jsonline

import (
	"fmt"
	"testing"
)

func TestDecode(t *testing.T) {
	type row struct{ A int }
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"A":1}`, true},
		{`{"A":1,"B":2}`, false},
		{`{"A":1} {"A":2}`, false},
		{`{"A":"x"}`, false},
		{``, false},
	} {
		var r row
		if err := Decode([]byte(tc.in), &r); (err == nil) != tc.ok {
			t.Errorf("Decode(%q) = %v, want ok %v", tc.in, err, tc.ok)
		}
	}
}

func ExampleDecode() {
	var g struct{ Arm string }
	fmt.Println(Decode([]byte(`{"Arm":"hand"}`), &g), g.Arm)
	fmt.Println(Decode([]byte(`{"Arm":"hand","Score":3}`), &g))
	// Output:
	// <nil> hand
	// json: unknown field "Score"
}
