//go:build !unix

package samples

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
