package bfs

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Rule selects the line-clear rule.
type Rule int

const (
	// RuleQntm is the real game: a piece that locks sticking out above the
	// bar ends the game and clears nothing.
	RuleQntm Rule = iota
	// RuleClearAboveBar clears full lines first and ends the game only if
	// something is still above the bar (the blog's old width-10 table).
	RuleClearAboveBar
)

// String returns the rule's CLI name.
func (r Rule) String() string {
	if r == RuleClearAboveBar {
		return "clear-above-bar"
	}
	return "qntm"
}

// ParseRule reads "qntm" or "clear-above-bar".
func ParseRule(s string) (Rule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "qntm", "real", "":
		return RuleQntm, nil
	case "clear-above-bar", "clearabovebar", "old":
		return RuleClearAboveBar, nil
	}
	return 0, fmt.Errorf("unknown rule %q (want qntm or clear-above-bar)", s)
}

// Bar is the number of rows above the bar in every searched well.
const Bar = 4

// NewRules returns the engine rules of a width x height well (height rows
// below the bar, plus Bar rows above it).
func NewRules(width, height int, rule Rule) (*hatetris.Rules, error) {
	if height < 1 {
		return nil, fmt.Errorf("height %d: want at least 1 row below the bar", height)
	}
	if maxH := hatetris.MaxDepth - 3 - Bar; height > maxH {
		return nil, fmt.Errorf("height %d out of range 1..%d", height, maxH)
	}
	if rule == RuleClearAboveBar {
		return hatetris.NewRulesClearAboveBar(width, height+Bar, Bar)
	}
	return hatetris.NewRules(width, height+Bar, Bar)
}
