package replaycodec

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// readJSONL decodes every line of a testdata file into a new T.
func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s line %d: %v", name, len(out)+1, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s is empty", name)
	}
	return out
}

// codecVector is one line of replay_codecs.jsonl (the game's own codecs
// applied to keys).
type codecVector struct {
	Label                string `json:"label"`
	Keys                 string `json:"keys"`
	Raw                  string `json:"raw"`
	Hex                  string `json:"hex"`
	Base65536            string `json:"base65536"`
	Base2048             string `json:"base2048"`
	RLEBytesHex          string `json:"rle_bytes_hex"`
	GameEncode           string `json:"game_encode"`
	DecodedHex           string `json:"decoded_hex"`
	DecodedBase65536     string `json:"decoded_base65536"`
	DecodedBase2048      string `json:"decoded_base2048"`
	AutoDecodedHex       string `json:"auto_decoded_hex"`
	AutoDecodedBase65536 string `json:"auto_decoded_base65536"`
	AutoDecodedBase2048  string `json:"auto_decoded_base2048"`
	AutoDecodedRaw       string `json:"auto_decoded_raw"`
}

func TestCodecVectors(t *testing.T) {
	vecs := readJSONL[codecVector](t, "replay_codecs.jsonl")
	if len(vecs) != 55 {
		t.Errorf("replay_codecs.jsonl has %d vectors, want 55", len(vecs))
	}
	for _, v := range vecs {
		t.Run(v.Label, func(t *testing.T) {
			enc := []struct {
				f    Format
				want string
			}{{Raw, v.Raw}, {Hex, v.Hex}, {Base65536, v.Base65536}, {Base2048, v.Base2048}, {Auto, v.GameEncode}}
			for _, e := range enc {
				got, err := Encode(e.f, v.Keys)
				if err != nil || got != e.want {
					t.Errorf("Encode(%v) = %q, %v; want %q", e.f, got, err, e.want)
				}
			}
			rle, err := AppendRunLength(nil, v.Keys)
			if err != nil || hex.EncodeToString(rle) != v.RLEBytesHex {
				t.Errorf("run-length bytes = %x, %v; want %s", rle, err, v.RLEBytesHex)
			}
			if got := string(AppendBase2048(nil, rle)); got != v.Base2048 {
				t.Errorf("AppendBase2048(rle) = %q, want %q", got, v.Base2048)
			}
			if got := string(AppendBase65536(nil, rle)); got != v.Base65536 {
				t.Errorf("AppendBase65536(rle) = %q, want %q", got, v.Base65536)
			}
			if got := string(AppendRunLengthDecode(nil, rle)); got != v.DecodedBase2048 {
				t.Errorf("AppendRunLengthDecode(rle) = %q, want %q", got, v.DecodedBase2048)
			}
			dec := []struct {
				f       Format
				in      string
				want    string
				wantErr bool
			}{
				{Raw, v.Raw, v.Keys, false},
				{Hex, v.Hex, v.DecodedHex, false},
				{Base65536, v.Base65536, v.DecodedBase65536, false},
				{Base2048, v.Base2048, v.DecodedBase2048, false},
			}
			for _, d := range dec {
				got, err := Decode(d.f, d.in)
				if err != nil || got != d.want {
					t.Errorf("Decode(%v, %q) = %q, %v; want %q", d.f, d.in, got, err, d.want)
				}
			}
			auto := []struct{ in, want string }{
				{v.Hex, v.AutoDecodedHex},
				{v.Base65536, v.AutoDecodedBase65536},
				{v.Base2048, v.AutoDecodedBase2048},
				{v.Raw, v.AutoDecodedRaw},
			}
			for _, a := range auto {
				got, f, err := DecodeAuto(a.in)
				if err != nil || got != a.want {
					t.Errorf("DecodeAuto(%q) = %q (%v), %v; want %q", a.in, got, f, err, a.want)
				}
				if got2, err := Decode(Auto, a.in); err != nil || got2 != got {
					t.Errorf("Decode(Auto, %q) = %q, %v; want %q", a.in, got2, err, got)
				}
			}
		})
	}
}

// The sniffed format of the game's decoder, on hand-picked inputs whose
// format is unambiguous from the game's rules (section 6 of the rules).
func TestDecodeAutoFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
		keys string
	}{
		{"", Base65536, ""},
		{"  \n", Base65536, ""},
		{"DDDRUD", Raw, "DDDRUD"},
		{" LRDU\n", Raw, "LRDU"},
		{"D", Raw, "D"},          // the hex replay of "UR" reads as raw
		{"F", Hex, "UU"},         // the Base2048 replay of "L" reads as hex
		{"A9E", Hex, "DDDRUD"},   // hex
		{"#A9E ", Hex, "DDDRUD"}, // '#' and spaces ignored
		{"𤺤", Base65536, "DDDRUD"},
		{"ਹԇ", Base2048, "DDDRUD"},
		{"l", Base2048, "LR"}, // lower-case letters are Base2048 characters
	}
	for _, tc := range tests {
		keys, f, err := DecodeAuto(tc.in)
		if err != nil || f != tc.want || keys != tc.keys {
			t.Errorf("DecodeAuto(%q) = %q, %v, %v; want %q, %v", tc.in, keys, f, err, tc.keys, tc.want)
		}
	}
}

// knownReplay is one line of known_replays.jsonl (the replays of the game's
// test suite, with their decoded keys).
type knownReplay struct {
	Name       string `json:"name"`
	AI         string `json:"ai"`
	Source     string `json:"source"`
	Encoding   string `json:"encoding"`
	Replay     string `json:"replay"`
	Keys       string `json:"keys"`
	KeysTotal  int    `json:"keys_total"`
	FinalScore int    `json:"final_score"`
}

var encodingFormat = map[string]Format{"raw": Raw, "hex": Hex, "Base65536": Base65536, "Base2048": Base2048}

func TestKnownReplays(t *testing.T) {
	reps := readJSONL[knownReplay](t, "known_replays.jsonl")
	if len(reps) != 61 {
		t.Errorf("known_replays.jsonl has %d lines, want 61", len(reps))
	}
	for _, r := range reps {
		want, ok := encodingFormat[r.Encoding]
		if !ok {
			t.Fatalf("%s: unknown encoding %q", r.Name, r.Encoding)
		}
		keys, f, err := DecodeAuto(r.Replay)
		if err != nil || keys != r.Keys {
			t.Errorf("%s (%s): DecodeAuto = %d keys, %v; want %d keys", r.Name, r.Encoding, len(keys), err, len(r.Keys))
			continue
		}
		if len(keys) != r.KeysTotal {
			t.Errorf("%s: %d keys, keys_total %d", r.Name, len(keys), r.KeysTotal)
		}
		if f != want {
			t.Errorf("%s (%s): sniffed as %v", r.Name, r.Encoding, f)
		}
		if got, err := Decode(want, r.Replay); err != nil || got != r.Keys {
			t.Errorf("%s: Decode(%v) = %d keys, %v", r.Name, want, len(got), err)
		}
		// Re-encoding the decoded keys gives back the published string (for
		// hex: its digits; published hex replays space the digits freely).
		enc, err := Encode(want, keys)
		if want == Hex {
			enc, r.Replay = hexDigitsOnly(enc), hexDigitsOnly(r.Replay)
		}
		if err != nil || enc != r.Replay {
			t.Errorf("%s: Encode(%v, decoded keys) differs from the published replay (%v)", r.Name, want, err)
		}
	}
}

// hexDigitsOnly drops everything but the hex digits from s.
func hexDigitsOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(hexDigits, r) {
			return r
		}
		return -1
	}, s)
}

// gameReplay is one line of game_replays.jsonl: the keys of a generated game
// and the game's own Base2048 encoding of them.
type gameReplay struct {
	Game           int    `json:"game"`
	ReplayKeys     string `json:"replay_keys"`
	ReplayBase2048 string `json:"replay_base2048"`
}

func TestGameEncodings(t *testing.T) {
	for _, g := range readJSONL[gameReplay](t, "game_replays.jsonl") {
		got, err := Encode(Base2048, g.ReplayKeys)
		if err != nil || got != g.ReplayBase2048 {
			t.Errorf("game %d: Encode(Base2048) differs from the game's encoding (%v)", g.Game, err)
		}
		keys, f, err := DecodeAuto(g.ReplayBase2048)
		if err != nil || f != Base2048 || !paddedEqual(keys, g.ReplayKeys, 'L') {
			t.Errorf("game %d: DecodeAuto = %v, %v; keys differ", g.Game, f, err)
		}
	}
}

// paddedEqual reports whether got is want, or want followed by one pad key.
func paddedEqual(got, want string, pad byte) bool {
	return got == want || len(got) == len(want)+1 && got[len(want)] == pad && got[:len(want)] == want
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"encode bad key", func() error { _, err := Encode(Base2048, "LRDX"); return err }, "keys: character U+0058 'X' at position 3 is not one of L, R, D, U"},
		{"encode lower case", func() error { _, err := Encode(Hex, "lr"); return err }, "keys: character U+006C 'l' at position 0 is not one of L, R, D, U"},
		{"encode non-ASCII position in characters", func() error { _, err := Encode(Raw, "LéD!"); return err }, "keys: character U+00E9 'é' at position 1 is not one of L, R, D, U"},
		{"raw decode", func() error { _, err := Decode(Raw, "LRX"); return err }, "raw: keys: character U+0058 'X' at position 2 is not one of L, R, D, U"},
		{"base2048 not in repertoire", func() error { _, err := Decode(Base2048, "ਹ!"); return err }, "base2048: character U+0021 '!' at position 1 is not in the repertoire"},
		{"base2048 tail not last", func() error { _, err := Decode(Base2048, "1ਹ"); return err }, "base2048: tail character U+0031 '1' at position 0 is not the last character"},
		{"base2048 padding", func() error { _, err := Decode(Base2048, "8"); return err }, "base2048: the padding bits at the end are not all 1s"},
		{"base2048 invalid utf8", func() error { _, err := Decode(Base2048, "ਹ\xff"); return err }, "base2048: character (invalid UTF-8 byte 0xFF) at position 1 is not in the repertoire"},
		{"base65536 not in repertoire", func() error { _, err := Decode(Base65536, "𤺤x"); return err }, "base65536: character U+0078 'x' at position 1 is not in the repertoire"},
		{"base65536 after tail", func() error { _, err := Decode(Base65536, "ᔀ𤺤"); return err }, "base65536: character U+24EA4 '𤺤' at position 1 follows the final (odd-byte) character at position 0"},
		{"auto neither", func() error { _, _, err := DecodeAuto("hello, world"); return err }, "not a raw, hex, Base65536 or Base2048 replay: base2048: character U+002C ',' at position 5 is not in the repertoire"},
		{"parse format", func() error { _, err := ParseFormat("base64"); return err }, `unknown replay format "base64" (want auto, raw, hex, base65536 or base2048)`},
	}
	for _, tc := range tests {
		err := tc.err()
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, err, tc.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans lines", tc.name)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for f := Auto; f <= Base2048; f++ {
		for _, s := range []string{f.String(), strings.ToUpper(f.String())} {
			got, err := ParseFormat(s)
			if err != nil || got != f {
				t.Errorf("ParseFormat(%q) = %v, %v; want %v", s, got, err, f)
			}
		}
	}
	if s := Format(9).String(); s != "Format(9)" {
		t.Errorf("Format(9).String() = %q", s)
	}
}

// The repertoire tables have the documented shape: 2048 + 8 distinct
// characters for Base2048, whole 256-blocks for Base65536, no overlap.
func TestRepertoires(t *testing.T) {
	seen := map[rune]bool{}
	for _, r := range b2048Enc {
		if seen[r] {
			t.Fatalf("base2048: U+%04X twice", r)
		}
		seen[r] = true
	}
	for z, r := range b2048TailEnc {
		if r != rune('0'+z) || seen[r] {
			t.Fatalf("base2048 tail %d = U+%04X", z, r)
		}
	}
	if b2048Enc[0] != '8' || b2048Enc[7] != 'F' || b2048Enc[2047] != 0x1055 {
		t.Errorf("base2048 ends: %q %q U+%04X", b2048Enc[0], b2048Enc[7], b2048Enc[2047])
	}
	if b65536Block[0] != 0x3400 || b65536Tail != 0x1500 || b65536Block[255] != 0x28500 {
		t.Errorf("base65536 blocks: U+%04X U+%04X U+%04X", b65536Block[0], b65536Tail, b65536Block[255])
	}
}
