package flats

import (
	"fmt"

	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

// RecordGames replays the primary replay of every world record of
// datasets/records (kind "record", in file order) against its AI on the
// standard well.
func RecordGames() ([]*hatetris.Game, error) {
	all, err := records.All()
	if err != nil {
		return nil, err
	}
	var out []*hatetris.Game
	for _, rec := range all {
		if !rec.Primary || rec.Kind != "record" {
			continue
		}
		f, err := replaycodec.ParseFormat(rec.Encoding)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rec.Name, err)
		}
		keys, err := replaycodec.Decode(f, rec.Replay)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rec.Name, err)
		}
		ai, err := hatetris.ParseAI(rec.AI)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rec.Name, err)
		}
		g, err := hatetris.Play(hatetris.Standard(), ai, keys)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rec.Name, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// CountGames counts replayed games (all on the rules of the first).
func CountGames(games []*hatetris.Game) (*Counts, error) {
	if len(games) == 0 {
		return nil, fmt.Errorf("flats: no games to count")
	}
	k, err := NewCounter(games[0].Rules)
	if err != nil {
		return nil, err
	}
	for i, g := range games {
		if err := k.CountGame(g); err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
	}
	return k.Counts, nil
}
