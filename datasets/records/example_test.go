package records_test

import (
	"fmt"

	"github.com/hatelab/hatelab/datasets/records"
)

// Every world record from 2010 to the 3,711-line game: the primary line
// (the Base2048 replay when there is one) of each game of kind "record".
func ExampleAll() {
	all, err := records.All()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(all), "replay strings")
	for _, r := range all {
		if r.Primary && r.Kind == "record" {
			fmt.Printf("%4d %-10s %s\n", r.Score, r.Date, r.Holder)
		}
	}
	// Output:
	// 53 replay strings
	//   11 2010-04    Atypical
	//   17 2010-04    SDA Guest
	//   20 2010-04    SDA Guest
	//   22 2010-04    Ivenris
	//   28 2010       SDA Guest
	//   30 2010-05    Deasuke
	//   31 2017-06-06 chromeyhex
	//   32 2021-06    knewjade
	//   34 2021-06    knewjade
	//   41 2021-06    knewjade
	//   66 2021-08-23 knewjade
	//   86 2022-05-29 David & Felipe
	//  148 2022-11    David & Felipe
	//  152 2022-11    David & Felipe
	//  157 2022-11    Tim
	//  232 2022-11-24 Tim
	//  289 2022-11-26 knewjade
	//  302 2023-03-05 David & Felipe
	//  366 2024-09-04 David & Felipe
	// 3711 2025-04-08 David & Felipe
}
