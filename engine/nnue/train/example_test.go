package train_test

import (
	"context"
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/train"
)

// Train fits a network to samples (features and targets in [-1, 1]); the
// result is the engine's float network of the best validation epoch.
func ExampleTrain() {
	fs, _ := nnue.NewFeatureSet(nnue.Shared, 4, 4)
	var set []train.Sample
	rows := make([]uint16, 4)
	for i := 0; i < 400; i++ { // the target: how full the bottom row is
		rows[3], rows[2] = uint16(i%16), uint16(i/16%16)
		full := float64(rows[3]&1+rows[3]>>1&1+rows[3]>>2&1+rows[3]>>3&1) / 4
		set = append(set, train.Sample{Feats: fs.Append(nil, rows), Target: float32(2*full - 1)})
	}
	res, err := train.Train(context.Background(), train.Config{Features: fs, Hidden: 4, Batch: 16, MaxEpochs: 3, Seed: 1}, set)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Epochs), res.Net.Features, res.Net.Hidden, res.Train+res.Valid, !math.IsNaN(res.Epochs[res.BestEpoch].ValidMSE))
	// Output: 3 shared 4x4 (F=4112, K=6) 4 400 true
}
