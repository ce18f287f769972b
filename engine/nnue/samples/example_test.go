package samples_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue/samples"
)

// A samples file holds wells with their provenance; Read gives them back.
func ExampleWrite() {
	r := hatetris.Standard()
	var a, b hatetris.Well
	a[r.Depth-1] = 0b1111101111
	b[r.Depth-1], b[r.Depth-2] = 0b1111111110, 0b0000000001
	dir, _ := os.MkdirTemp("", "samples-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "samples.bin")
	if err := samples.Write(path, r, &samples.File{Provenance: "two wells by hand", Wells: []hatetris.Well{a, b, a}}); err != nil {
		fmt.Println(err)
		return
	}
	sf, err := samples.Read(path, r)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sf.Provenance, sf.Count, sf.Rows, len(samples.Distinct(sf.Wells)))
	fmt.Printf("%010b\n", sf.Wells[1][r.Depth-2:r.Depth])
	// Output:
	// two wells by hand 3 16 2
	// [0000000001 1111111110]
}
