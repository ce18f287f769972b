// Package progressview draws progress events (engine/progress) as a bar with
// rate and ETA: an HTML bar updated in place in a notebook, a bar on a
// terminal, a plain line every few seconds in logs. It pulls in no plotting,
// so the CLI uses it.
package progressview
