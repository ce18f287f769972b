package flats

import "math/rand/v2"

type shuffler struct{ rng *rand.Rand }

func newShuffler(seed uint64) shuffler {
	return shuffler{rand.New(rand.NewPCG(seed, 0x706c6163))}
}

func (s shuffler) shuffle(v []float64) {
	s.rng.Shuffle(len(v), func(i, j int) { v[i], v[j] = v[j], v[i] })
}
