// Package arena is the notebooks' face of engine/arena, the lab's one way
// to compare evaluations and settings: Play runs a paired match with a
// table that updates as games finish, Load reads a committed match file,
// and Table, Chart and Verdicts show a result (the standings per arm, the
// paired differences start by start with their interval, and one line per
// comparison saying what it shows).
package arena
