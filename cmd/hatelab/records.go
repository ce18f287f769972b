package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"
)

func init() { rootCmd.AddCommand(newRecordsCmd()) }

// recordJSON is one line of `hatelab records --json`.
type recordJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Holder   string `json:"holder"`
	Date     string `json:"date,omitempty"`
	Score    int    `json:"score"`
	AI       string `json:"ai"`
	Kind     string `json:"kind"`
	Encoding string `json:"encoding"`
	Replay   string `json:"replay"`
}

// recordID is a record's name as one word to type: lower case, runs of
// other characters as one hyphen ("David & Felipe (6)" is david-felipe-6).
func recordID(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// primaryRecords are the replays of datasets/records, one per name (the
// Base2048 replay where there is one), in the dataset's order.
func primaryRecords() ([]records.Record, error) {
	all, err := records.All()
	if err != nil {
		return nil, failure(err)
	}
	var out []records.Record
	for _, r := range all {
		if r.Primary {
			out = append(out, r)
		}
	}
	return out, nil
}

// findRecord picks a record by its id (hatelab records), its name ("David &
// Felipe (6)", any case) or its score (3711: the world record of that
// score, or the one replay that scores it).
func findRecord(sel string) (records.Record, error) {
	rs, err := primaryRecords()
	if err != nil {
		return records.Record{}, err
	}
	s := strings.TrimSpace(sel)
	if s == "" {
		return records.Record{}, fmt.Errorf("--record: empty; give an id, a name or a score from `hatelab records`")
	}
	for _, r := range rs {
		if recordID(r.Name) == strings.ToLower(s) || strings.EqualFold(r.Name, s) {
			return r, nil
		}
	}
	if n, err := strconv.Atoi(s); err == nil {
		var hits []records.Record
		for _, r := range rs {
			if r.Score == n && r.Kind == "record" {
				return r, nil
			}
			if r.Score == n {
				hits = append(hits, r)
			}
		}
		if len(hits) == 1 {
			return hits[0], nil
		}
		if len(hits) > 1 {
			var ids []string
			for _, r := range hits {
				ids = append(ids, recordID(r.Name))
			}
			return records.Record{}, fmt.Errorf("--record %d: %d replays score %d (%s): give an id", n, len(hits), n, strings.Join(ids, ", "))
		}
	}
	return records.Record{}, fmt.Errorf("--record %.40q: no record has that id, name or score (`hatelab records` lists them)", s)
}

// recordAI is the --ai name of the AI a record was played against.
func recordAI(r records.Record) string {
	if r.AI == "HATETRIS Mild" {
		return "mild"
	}
	return "hatetris"
}

// replayRecordInput returns what `hatelab replay` replays: the replay of
// the record named by --record (whose AI it plays against unless --ai is
// given), or its one argument.
func replayRecordInput(cmd *cobra.Command, record string, args []string, aiName *string) (string, error) {
	if !cmd.Flags().Changed("record") {
		if len(args) != 1 {
			return "", fmt.Errorf("want one REPLAY argument (or --record NAME; `hatelab records` lists them), got %d", len(args))
		}
		return readArg(args[0])
	}
	if len(args) != 0 {
		return "", fmt.Errorf("--record and a REPLAY argument: give one of them")
	}
	// A record belongs to its well: every record was played in the
	// standard 10x20 well under a bar of 4, and its keys in another well
	// are another game.
	std := hatetris.Standard()
	for _, g := range []struct {
		flag string
		want int
	}{{flags.WellWidthFlag, std.Width}, {flags.WellDepthFlag, std.Depth}, {flags.BarFlag, std.Bar}} {
		if f := cmd.Flags().Lookup(g.flag); f != nil && f.Changed && f.Value.String() != strconv.Itoa(g.want) {
			return "", fmt.Errorf("--record with --%s %s: the records were played in the standard %dx%d well under a bar of %d, and their keys in another well are another game (replay the keys as a REPLAY argument to play them there)", g.flag, f.Value, std.Width, std.Depth, std.Bar)
		}
	}
	r, err := findRecord(record)
	if err != nil {
		return "", err
	}
	if !cmd.Flags().Changed("ai") {
		*aiName = recordAI(r)
	}
	return r.Replay, nil
}

func newRecordsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "records [--json]",
		Short: "List the HATETRIS world-record replays of datasets/records",
		Long: `List every replay of datasets/records/records.jsonl (the world records from
2010 on, and a few loops and other games): its id, score, holder, date, the AI
it was played against and its kind. Replay one with
hatelab replay --record ID (or its name, or its score).
--json prints one JSON object a line, the replay string included.`,
		Example: `  hatelab records
  hatelab replay --record 3711
  hatelab replay --record david-felipe-1 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rs, err := primaryRecords()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				for _, r := range rs {
					if err := writeJSON(out, recordJSON{ID: recordID(r.Name), Name: r.Name, Holder: r.Holder, Date: r.Date,
						Score: r.Score, AI: r.AI, Kind: r.Kind, Encoding: r.Encoding, Replay: r.Replay}); err != nil {
						return err
					}
				}
				return nil
			}
			return writeRecordsTable(out, rs)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print one JSON object a line: {"id","name","holder","date","score","ai","kind","encoding","replay"}`)
	return cmd
}

func writeRecordsTable(w io.Writer, rs []records.Record) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tscore\tholder\tdate\tAI\tkind")
	for _, r := range rs {
		date := r.Date
		if date == "" {
			date = "?"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", recordID(r.Name), r.Score, r.Holder, date, r.AI, r.Kind)
	}
	if err := tw.Flush(); err != nil {
		return failure(err)
	}
	return nil
}
