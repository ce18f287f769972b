package replaycodec_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/replaycodec"
)

// The README's example: `hatelab encode --format base2048 LLDDRRUU`.
func ExampleEncode() {
	s, err := replaycodec.Encode(replaycodec.Base2048, "LLDDRRUU")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	// Output:
	// ɤ໖
}

// The same keys in every format the game understands. Auto writes the
// game's current output format, Base2048.
func ExampleEncode_formats() {
	for _, f := range []replaycodec.Format{replaycodec.Raw, replaycodec.Hex, replaycodec.Base65536, replaycodec.Base2048, replaycodec.Auto} {
		s, err := replaycodec.Encode(f, "LLDDRRUU")
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-9s %q\n", f, s)
	}
	// Output:
	// raw       "LLDDRRUU"
	// hex       "0A5F "
	// base65536 "鈙"
	// base2048  "ɤ໖"
	// auto      "ɤ໖"
}

func ExampleDecode() {
	keys, err := replaycodec.Decode(replaycodec.Base2048, "ɤ໖")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(keys)
	// Output:
	// LLDDRRUU
}

// DecodeAuto sniffs the format the way the game does, quirks included (the
// hex replay "D" reads as raw, the Base2048 replay "F" as hex); first qntm's all-Down
// game in the 2010 hex format.
func ExampleDecodeAuto() {
	keys, f, err := replaycodec.DecodeAuto("AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA A2")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f, len(keys), keys[len(keys)-4:])
	for _, s := range []string{"LLDDRRUU", "ɤ໖", "D", "F"} {
		keys, f, err := replaycodec.DecodeAuto(s)
		fmt.Println(s, f, keys, err)
	}
	// Output:
	// hex 92 DDLD
	// LLDDRRUU raw LLDDRRUU <nil>
	// ɤ໖ base2048 LLDDRRUU <nil>
	// D raw D <nil>
	// F hex UU <nil>
}

func ExampleValidateKeys() {
	fmt.Println(replaycodec.ValidateKeys("LLDDRRUU"))
	fmt.Println(replaycodec.ValidateKeys("LLDxRR"))
	// Output:
	// <nil>
	// keys: character U+0078 'x' at position 3 is not one of L, R, D, U
}

func ExampleParseFormat() {
	f, err := replaycodec.ParseFormat("Base2048")
	fmt.Println(f, err)
	_, err = replaycodec.ParseFormat("base64")
	fmt.Println(err)
	// Output:
	// base2048 <nil>
	// unknown replay format "base64" (want auto, raw, hex, base65536 or base2048)
}

// AppendEncode reuses a buffer: sized with EncodedLenMax it allocates
// nothing.
func ExampleAppendEncode() {
	keys := "LLDDRRUU"
	buf := make([]byte, 0, replaycodec.EncodedLenMax(replaycodec.Base2048, len(keys)))
	buf, err := replaycodec.AppendEncode(buf, replaycodec.Base2048, keys)
	fmt.Println(string(buf), err)
	// Output:
	// ɤ໖ <nil>
}

// The run-length byte stream that the two Unicode formats encode.
func ExampleAppendRunLength() {
	b, err := replaycodec.AppendRunLength(nil, "LLDDRRUU")
	fmt.Printf("% x %v\n", b, err)
	fmt.Println(string(replaycodec.AppendRunLengthDecode(nil, b)))
	// Output:
	// 19 5d <nil>
	// LLDDRRUU
}
