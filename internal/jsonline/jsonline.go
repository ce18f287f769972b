// Package jsonline decodes one line of a JSONL store strictly: one JSON
// object, no field the type does not know, nothing after it. The stores
// that resume from their own lines (an arena match file, a tuning log)
// refuse a line that is anything else.
package jsonline

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Decode decodes b, one line without its newline, into v.
func Decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
