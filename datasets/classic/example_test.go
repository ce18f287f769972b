package classic_test

import (
	"fmt"

	classicdata "github.com/hatelab/hatelab/datasets/classic"
	"github.com/hatelab/hatelab/engine/classic"
)

// The tetr-ai records reproduce tetr-ai's README table: here the mean and
// median lines at 10 rows over its 1000 documented seeds.
func ExampleTetrAI() {
	recs, err := classicdata.TetrAI()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(recs), "games")
	for _, st := range classic.Summarize(recs) {
		if st.Rows == 10 {
			fmt.Printf("%s rows %d cols %d: n %d mean %.2f median %.1f\n", st.Agent, st.Rows, st.Cols, st.N, st.Mean, st.Median)
		}
	}
	for _, p := range classic.TetrAIPublished {
		if p.Rows == 10 {
			fmt.Printf("published: mean %.2f median %.1f\n", p.Mean, p.Median)
		}
	}
	// Output:
	// 8000 games
	// tetr-ai rows 10 cols 10: n 1000 mean 7519.81 median 4942.5
	// published: mean 7519.81 median 4942.5
}

// The other agents' records (tetr-ai's own are in TetrAI), counted per
// agent.
func ExampleAgents() {
	recs, err := classicdata.Agents()
	if err != nil {
		fmt.Println(err)
		return
	}
	n := map[string]int{}
	for _, r := range recs {
		n[r.Agent]++
	}
	fmt.Println(len(recs), "games")
	for _, a := range classic.AgentNames[1:] {
		fmt.Println(a, n[a])
	}
	// Output:
	// 3930 games
	// dellacherie 1600
	// bcts 1600
	// wkb 730
}
