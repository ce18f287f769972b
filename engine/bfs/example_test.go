package bfs_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/hatelab/hatelab/engine/bfs"
)

// Search a 10x4 well (4 rows below the bar) under the real rule: the best
// score, the length and the peak, then the first levels.
func ExampleSearch() {
	res, err := bfs.Search(context.Background(), bfs.Options{Width: 10, Height: 4, Rule: bfs.RuleQntm})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("score %d, length %d, peak %d states at level %d\n", res.Score, res.Length, res.PeakStates, res.PeakLevel)
	for _, l := range res.Levels[:4] {
		fmt.Printf("level %d: %d states from %d children, best score %d\n", l.Level, l.States, l.Children, l.BestScore)
	}
	// Output:
	// score 1, length 11, peak 9094 states at level 6
	// level 0: 1 states from 0 children, best score 0
	// level 1: 17 states from 17 children, best score 0
	// level 2: 155 states from 245 children, best score 0
	// level 3: 948 states from 1759 children, best score 0
}

// A search stops when its context is cancelled (here before it starts;
// the CLI cancels on Ctrl-C). With Options.Checkpoint, the same search run
// again resumes from the last level saved.
func ExampleSearch_cancel() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := bfs.Search(ctx, bfs.Options{Width: 10, Height: 6})
	fmt.Println(errors.Is(err, context.Canceled))
	fmt.Println(err)
	// Output:
	// true
	// bfs: 10x6 qntm stopped at level 0: context canceled
}

// A search writes its levels as the per-level table of datasets/bfs/levels.
func ExampleWriteLevels() {
	res, err := bfs.Search(context.Background(), bfs.Options{Width: 10, Height: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := bfs.WriteLevels(os.Stdout, res); err != nil {
		log.Fatal(err)
	}
	// Output:
	// depth,states,children,best_score
	// 0,1,0,0
	// 1,8,8,0
	// 2,21,41,0
	// 3,20,36,0
	// 4,2,2,0
}

// Read the committed summary table and pick one search.
func ExampleReadSummaryFile() {
	rows, err := bfs.ReadSummaryFile("../../datasets/bfs/summary.csv")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rows {
		if r.Width == 10 && r.Height == 7 && r.Rule == bfs.RuleQntm {
			fmt.Printf("10x7: score %d, length %d, peak %d states at level %d, %d states expanded\n",
				r.Score, r.Length, r.PeakStates, r.PeakLevel, r.States)
		}
	}
	// Output:
	// 10x7: score 12, length 43, peak 141212710 states at level 11, 817470330 states expanded
}

// Rebuild a longest game from the level files of a search, verified by
// replaying its keys in the engine.
func ExampleReconstruct() {
	dir, err := os.MkdirTemp("", "bfs-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if _, err := bfs.Search(context.Background(), bfs.Options{Width: 5, Height: 6, LevelDir: dir}); err != nil {
		log.Fatal(err)
	}
	g, err := bfs.Reconstruct(dir, bfs.Longest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("score %d, %d pieces, keys %s\n", g.Score, g.Length, g.Keys)
	// Output:
	// score 4, 10 pieces, keys DDDDDDUDDDDULLDDDDRDDDDDURDDRDDDDURDDDDDDUDDRDDDDDRRDUDDDLDDUDDDDLDDUDDRDDDD
}

// Rebuild a committed game from its replay (games.jsonl), checked against
// its recorded score, length and pieces.
func ExampleGameRecord_Game() {
	f, err := os.Open("../../datasets/bfs/games.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	games, err := bfs.ReadGames(f)
	if err != nil {
		log.Fatal(err)
	}
	for _, gr := range games {
		if gr.Width == 10 && gr.Height == 4 && gr.Target == "longest" {
			g, err := gr.Game()
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("10x4 longest: score %d, %d pieces %s\n", g.Score, g.Length, gr.Pieces)
		}
	}
	// Output:
	// 10x4 longest: score 1, 11 pieces SSSSSIISSII
}

// The real AI, with its memory, in a tiny well where the history-free
// search loops.
func ExampleHistorySearch() {
	hr, err := bfs.HistorySearch(context.Background(), bfs.HistoryOptions{Width: 4, Height: 6})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("4x6: complete %v, score %d, length %d\n", hr.Complete, hr.Score, hr.Length)
	// Output:
	// 4x6: complete true, score 3, length 7
}

// WriteText prints a search's levels and its result, as both command
// lines do: here the first three levels of 6x4, so score and length are
// lower bounds.
func ExampleWriteText() {
	res, err := bfs.Search(context.Background(), bfs.Options{Width: 6, Height: 4, MaxLevels: 3, Workers: 1})
	if err != nil {
		panic(err)
	}
	res.Seconds, res.CPUSeconds, res.PeakRSS = 0, 0, 0 // the run's own, not reproducible
	if err := bfs.WriteText(os.Stdout, res); err != nil {
		panic(err)
	}
	// Output:
	// level  states  children  best score
	//       0       1         0           0
	//       1       9         9           0
	//       2      54        59           0
	//       3     139       160          -1
	// 6x4 qntm: score >= 0, length >= 2, peak 54 states (level 2); 0.00 s (0.00 s CPU), peak RSS 0 MiB
}
