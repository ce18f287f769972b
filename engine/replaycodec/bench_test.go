package replaycodec

import "testing"

// record3711 returns the 3711-line world record (David & Felipe, the game's
// test suite) as its published Base2048 replay and its keys.
func record3711(b *testing.B) (replay, keys string) {
	for _, r := range readJSONL[knownReplay](b, "known_replays.jsonl") {
		if r.Name == "David & Felipe (6)" && r.FinalScore == 3711 {
			return r.Replay, r.Keys
		}
	}
	b.Fatal("the 3711 record is not in known_replays.jsonl")
	return "", ""
}

func BenchmarkEncode3711(b *testing.B) {
	_, keys := record3711(b)
	for _, f := range []Format{Hex, Base65536, Base2048} {
		b.Run(f.String(), func(b *testing.B) {
			dst := make([]byte, 0, EncodedLenMax(f, len(keys)))
			b.SetBytes(int64(len(keys)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if dst, err = AppendEncode(dst[:0], f, keys); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("string/base2048", func(b *testing.B) {
		b.SetBytes(int64(len(keys)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Encode(Base2048, keys); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDecode3711(b *testing.B) {
	replay, keys := record3711(b)
	encodings := map[Format]string{Raw: keys, Base2048: replay}
	for _, f := range []Format{Hex, Base65536} {
		s, err := Encode(f, keys)
		if err != nil {
			b.Fatal(err)
		}
		encodings[f] = s
	}
	for _, f := range []Format{Raw, Hex, Base65536, Base2048} {
		s := encodings[f]
		b.Run(f.String(), func(b *testing.B) {
			dst := make([]byte, 0, len(keys)+2)
			b.SetBytes(int64(len(keys)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if dst, _, err = AppendDecode(dst[:0], Auto, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("string/auto-base2048", func(b *testing.B) {
		b.SetBytes(int64(len(keys)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := DecodeAuto(replay); err != nil {
				b.Fatal(err)
			}
		}
	})
}
