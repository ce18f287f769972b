package replaycodec

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// seedReplays adds the codec vectors' encodings to a fuzz corpus.
func seedReplays(f *testing.F) {
	for _, v := range readJSONL[codecVector](f, "replay_codecs.jsonl") {
		for _, s := range []string{v.Raw, v.Hex, v.Base65536, v.Base2048} {
			f.Add(s)
		}
	}
	for _, s := range []string{" F\n", "#A9E", "1ਹ", "ᔀ𤺤", "ਹ\xff", "\ufeffDD", "l"} {
		f.Add(s)
	}
}

// checkDecoded checks the invariants of any successful decode.
func checkDecoded(t *testing.T, f Format, s, keys string) {
	if err := ValidateKeys(keys); err != nil {
		t.Fatalf("Decode(%v, %q) gave invalid keys: %v", f, s, err)
	}
}

func fuzzDecode(f *testing.F, format Format) {
	seedReplays(f)
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := Decode(format, s)
		if err != nil {
			if keys != "" || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Decode(%v, %q): keys %q with error %q", format, s, keys, err)
			}
			return
		}
		checkDecoded(t, format, s, keys)
		// The decoded keys encode and decode again to themselves, up to
		// one pad key.
		enc, err := Encode(format, keys)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(format, enc)
		if err != nil {
			t.Fatalf("Decode(%v, Encode(%q)): %v", format, keys, err)
		}
		if !paddedEqual(back, keys, padKey(format)) {
			t.Fatalf("%v round trip of %q gave %q", format, keys, back)
		}
	})
}

func padKey(f Format) byte {
	if f == Hex {
		return 'D'
	}
	return 'L'
}

func FuzzDecodeBase2048(f *testing.F)  { fuzzDecode(f, Base2048) }
func FuzzDecodeBase65536(f *testing.F) { fuzzDecode(f, Base65536) }
func FuzzDecodeHex(f *testing.F)       { fuzzDecode(f, Hex) }
func FuzzDecodeRaw(f *testing.F)       { fuzzDecode(f, Raw) }

func FuzzDecodeAuto(f *testing.F) {
	seedReplays(f)
	f.Fuzz(func(t *testing.T, s string) {
		keys, format, err := DecodeAuto(s)
		if err != nil {
			if format != Base2048 && format != Raw {
				t.Fatalf("DecodeAuto(%q) failed with format %v: %v", s, format, err)
			}
			return
		}
		checkDecoded(t, format, s, keys)
		// The format it reports decodes s to the same keys.
		if again, err := Decode(format, s); err != nil || again != keys {
			t.Fatalf("Decode(%v, %q) = %q, %v; DecodeAuto gave %q", format, s, again, err, keys)
		}
	})
}

// FuzzEncode maps arbitrary bytes to key strings and checks that every
// format decodes its own encoding back to the keys, up to the documented
// padding (one L for the nybble formats, one D for hex), and that
// DecodeAuto agrees except for the documented sniffing quirks.
func FuzzEncode(f *testing.F) {
	for _, v := range readJSONL[codecVector](f, "replay_codecs.jsonl") {
		f.Add([]byte(v.Keys))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		k := make([]byte, len(b))
		for i, c := range b {
			k[i] = keyLetters[c&3]
		}
		keys := string(k)
		for _, format := range []Format{Raw, Hex, Base65536, Base2048} {
			enc, err := Encode(format, keys)
			if err != nil {
				t.Fatal(err)
			}
			if len(enc) > EncodedLenMax(format, len(keys)) {
				t.Fatalf("Encode(%v, %q) is %d bytes, over EncodedLenMax %d", format, keys, len(enc), EncodedLenMax(format, len(keys)))
			}
			if !utf8.ValidString(enc) {
				t.Fatalf("Encode(%v, %q) is not valid UTF-8", format, keys)
			}
			got, err := Decode(format, enc)
			if err != nil {
				t.Fatalf("Decode(%v, Encode(%q)): %v", format, keys, err)
			}
			want := keys
			switch {
			case format == Hex && len(keys)%2 == 1:
				want += "D"
			case (format == Base65536 || format == Base2048) && nybbles(keys)%2 == 1:
				want += "L"
			}
			if got != want {
				t.Fatalf("%v: %q -> %q -> %q, want %q", format, keys, enc, got, want)
			}
		}
	})
}

// nybbles counts the run-length nybbles of keys.
func nybbles(keys string) int {
	r := rleReader{keys: keys}
	n := 0
	for {
		if _, ok := r.nybble(); !ok {
			return n
		}
		n++
	}
}
