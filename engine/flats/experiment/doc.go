// Package experiment is the test of the line-transition term G in beam
// searches that D&F could not afford: five arms (A0 hand, A1 hand + G, A2
// G + score alone, A3 hand + a placebo G, A4 hand + G from another
// source's table) on seeded start wells (engine/arena's Openings, each
// with its opening's memory), G's weight tuned on other starts, every
// search resumable (Results is its results file, Run plays what it does
// not hold yet). Results.Paired gives the paired differences against A0
// with bootstrap intervals (stats.MeanInterval), matched time included;
// every other comparison of evaluations goes through engine/arena's
// matches.
package experiment
