package survival

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/hatelab/hatelab/lab"
)

// Height20Lines are the lines of tetr-ai v2.0's 200 measured games at
// height 20 (10×20, seeds 20000..20199), as listed in its README
// ("Detailed Height-20 Results, Width 10"; https://github.com/misakamm/tetr-ai).
var Height20Lines = [200]float64{
	317118282, 434718708, 66832583, 281978049, // seeds 20000..20003
	256912801, 310407339, 929234180, 1016849, // seeds 20004..20007
	265098050, 85388679, 552604612, 6220383, // seeds 20008..20011
	116674246, 181451102, 416899008, 278197716, // seeds 20012..20015
	102479853, 301566407, 218785700, 127780063, // seeds 20016..20019
	53232791, 24334594, 5605536, 25301778, // seeds 20020..20023
	77831990, 79938070, 34859749, 338647362, // seeds 20024..20027
	72528592, 143484995, 18716634, 224524548, // seeds 20028..20031
	200660472, 383959875, 382844843, 174203522, // seeds 20032..20035
	643741636, 349059612, 472341629, 498005976, // seeds 20036..20039
	375212414, 144914225, 1225848655, 194238156, // seeds 20040..20043
	40638230, 115450578, 238005856, 465819585, // seeds 20044..20047
	27316587, 346341144, 363938540, 56409992, // seeds 20048..20051
	253814079, 1098449932, 9161635, 222500717, // seeds 20052..20055
	130407358, 19127541, 111005164, 11321606, // seeds 20056..20059
	765893, 172521137, 163580314, 161244801, // seeds 20060..20063
	82554014, 172679424, 84592129, 92410994, // seeds 20064..20067
	329787416, 65798012, 87664091, 652936929, // seeds 20068..20071
	474702224, 241827190, 2471215820, 47537514, // seeds 20072..20075
	194805779, 3495668, 11172184, 206284849, // seeds 20076..20079
	115686918, 602392552, 186664808, 94006114, // seeds 20080..20083
	409275490, 227905966, 462929096, 13960901, // seeds 20084..20087
	190151822, 460817598, 101526494, 235359646, // seeds 20088..20091
	79044098, 342815685, 327747150, 162628533, // seeds 20092..20095
	632568723, 342170724, 33582673, 89084682, // seeds 20096..20099
	108402472, 4768764, 152555974, 60181326, // seeds 20100..20103
	413028131, 451153453, 555084954, 56412783, // seeds 20104..20107
	488612165, 284810382, 145994967, 1045202271, // seeds 20108..20111
	1250510113, 120565729, 51381899, 54927219, // seeds 20112..20115
	152984775, 248308795, 730311137, 108392573, // seeds 20116..20119
	345614040, 240765208, 230972796, 10434127, // seeds 20120..20123
	350176937, 20956150, 278298996, 64594533, // seeds 20124..20127
	92072740, 313083141, 77710870, 56530912, // seeds 20128..20131
	58378528, 798368306, 305649769, 160975053, // seeds 20132..20135
	28388405, 96390499, 142144451, 274342849, // seeds 20136..20139
	1093183095, 264200796, 446978586, 95385274, // seeds 20140..20143
	234469087, 145930086, 1136632, 41229193, // seeds 20144..20147
	18825496, 539612747, 212875674, 500919059, // seeds 20148..20151
	1135078012, 97289611, 293322110, 319695682, // seeds 20152..20155
	581661719, 304036050, 441441112, 526764876, // seeds 20156..20159
	33062955, 139578781, 59326174, 65906950, // seeds 20160..20163
	553529, 582370193, 205829867, 223264930, // seeds 20164..20167
	78959533, 507960693, 19274665, 349349924, // seeds 20168..20171
	161883174, 8596833, 150640354, 111703345, // seeds 20172..20175
	487051799, 167816721, 504801536, 546192899, // seeds 20176..20179
	847994219, 64498692, 526510376, 460098515, // seeds 20180..20183
	250941878, 119532119, 3618046, 163143075, // seeds 20184..20187
	17970964, 23393133, 472868439, 296631381, // seeds 20188..20191
	66985595, 305189420, 222943509, 695587761, // seeds 20192..20195
	1019243979, 33404479, 292332670, 173253169, // seeds 20196..20199
}

// Height20 describes tetr-ai's measured height-20 games (Height20Lines):
// its README prints mean 269,583,731.13 and median 188,408,315.
func Height20() classic.Stats {
	s := classic.Describe(Height20Lines[:])
	s.Agent, s.Rows, s.Cols = "tetr-ai", 20, 10
	return s
}

// Reference is a published mean of an agent on a 10-wide board, with where
// it was published.
type Reference struct {
	Agent  string
	Rows   int
	Lines  float64
	Source string
}

// References are the published figures the agents of notebook 05 are
// checked against. They are all quoted from tetr-ai's README
// (https://github.com/misakamm/tetr-ai, "Published Records" and its
// notes); the papers themselves (Thiery & Scherrer 2009, Gabillon et al.
// 2013) were not read for this.
var References = []Reference{
	{"bcts", 16, 1e6, "tetr-ai README: Thiery & Scherrer's weights reproduced, mean at height 16"},
	{"bcts", 20, 35e6, "tetr-ai README table: Thiery & Scherrer 2009, 35,000,000"},
	{"dellacherie", 20, 5e6, "tetr-ai README: about 5 million under these rules (from Gabillon et al. 2013)"},
}

// SanityRow is one published figure beside the log-quadratic extrapolation
// of our means of the same agent.
type SanityRow struct {
	Agent     string `lab:"agent"`
	Rows      int    `lab:"height"`
	Published string `lab:"published"`
	Fit       string `lab:"our fit (h=5..12)"`
	PI        string `lab:"95% PI"`
	Heights   string `lab:"fitted heights"`
	Source    string `lab:"source"`
}

// SanityCheck fits ln(mean) = a + b·h + c·h² to each referenced agent's
// means in stats (every height it has) and sets its prediction at the
// referenced height beside the published figure. The extrapolation is
// long and its interval wide: it checks orders of magnitude, not digits.
func SanityCheck(stats []classic.Stats, refs []Reference) ([]SanityRow, error) {
	var out []SanityRow
	for _, r := range refs {
		var hs []int
		var ys []float64
		for _, s := range stats {
			if s.Agent == r.Agent && s.Cols == 10 {
				hs = append(hs, s.Rows)
				ys = append(ys, s.Mean)
			}
		}
		if len(hs) < 4 {
			return nil, fmt.Errorf("survival: %d heights of %s, need 4", len(hs), r.Agent)
		}
		f, err := classic.FitLogQuadratic(hs, ys)
		if err != nil {
			return nil, err
		}
		p := classic.PredictHeight(f, r.Rows)
		out = append(out, SanityRow{r.Agent, r.Rows, humanize.Count(r.Lines), humanize.Count(p.Lines),
			humanize.Count(p.PILo) + " .. " + humanize.Count(p.PIHi),
			fmt.Sprintf("%d..%d", hs[0], hs[len(hs)-1]), r.Source})
	}
	return out, nil
}

// SanityTable is SanityCheck as a table.
func SanityTable(stats []classic.Stats, refs []Reference) (*lab.Table, error) {
	rows, err := SanityCheck(stats, refs)
	if err != nil {
		return nil, err
	}
	return lab.TableOf(rows), nil
}
