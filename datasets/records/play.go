package records

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

// Play decodes the record's replay in its encoding and plays it against
// its AI on the real game's 10x20 well, returning the keys and the game:
// the one replayer of the records (lab/records, engine/flats and
// engine/arena replay them through it). Errors are one line naming the
// record.
func (r Record) Play() (keys string, g *hatetris.Game, err error) {
	f, err := replaycodec.ParseFormat(r.Encoding)
	if err != nil {
		return "", nil, fmt.Errorf("record %s: %w", r.Name, err)
	}
	keys, err = replaycodec.Decode(f, r.Replay)
	if err != nil {
		return "", nil, fmt.Errorf("record %s: decoding the replay: %w", r.Name, err)
	}
	ai, err := hatetris.ParseAI(r.AI)
	if err != nil {
		return "", nil, fmt.Errorf("record %s: %w", r.Name, err)
	}
	g, err = hatetris.Play(hatetris.Standard(), ai, keys)
	if err != nil {
		return "", nil, fmt.Errorf("record %s: replaying: %w", r.Name, err)
	}
	return keys, g, nil
}

// WorldRecords returns the primary line of every world record (kind
// "record", against either AI), in file order.
func WorldRecords() ([]Record, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, r := range all {
		if r.Primary && r.Kind == "record" {
			out = append(out, r)
		}
	}
	return out, nil
}
