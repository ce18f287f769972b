// Package scripts holds no Go code: it is the home of the project's shell
// and Python scripts (set-up, the lab, the notebook runner), and its tests
// check lab.sh from `go test ./...` (on Linux: they read /proc).
package scripts
