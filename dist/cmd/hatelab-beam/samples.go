package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue/samples"
)

// parseSamples reads the wells of a samples file: nnue cycle's binary
// format (engine/nnue/samples), or JSON with a "wells" array (its older
// format).
func parseSamples(data []byte, r *hatetris.Rules) ([]hatetris.Well, error) {
	if !bytes.HasPrefix(data, []byte(samples.Magic)) {
		var sf struct {
			Wells []hatetris.Well `json:"wells"`
		}
		if err := json.Unmarshal(data, &sf); err != nil {
			return nil, fmt.Errorf("not a samples file (%v)", err)
		}
		return sf.Wells, nil
	}
	sf, err := samples.Parse(data, r)
	if err != nil {
		return nil, err
	}
	return sf.Wells, nil
}
