package replaycodec

//go:generate go run gen_tables.go

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }
