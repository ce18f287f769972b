// Package samples is the file format of NNUE training samples: the wells
// a generation's master beam sampled, with their provenance. A file is the
// magic "HLSAMP1\n", one line of JSON header (File without the wells),
// the wells' rows below the bar as little-endian uint16 (Rows per well, top
// first), then the CRC-32C (Castagnoli) of everything before it,
// little-endian. Written by engine/nnue/cycle (samples.bin of each
// generation) and read there and by the Beam engine's target generation;
// no GoMLX here.
package samples

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// Magic opens a samples file.
const Magic = "HLSAMP1\n"

// MaxWells bounds a samples file's wells (a header asking for more is
// refused before anything is allocated).
const MaxWells = 1 << 26

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// File is a generation's sampled wells with their provenance.
type File struct {
	Provenance string  `json:"provenance"`
	Score      int     `json:"master_score"`
	Pieces     int     `json:"master_pieces"`
	Plain      int     `json:"master_score_without_quiescence"`
	Seconds    float64 `json:"seconds"`
	// Sampled is the reservoir's size before duplicates were dropped.
	Sampled int `json:"sampled"`
	// Count wells of Rows rows (below the bar) each, in Bar..Depth-1 of
	// the standard well.
	Count int             `json:"count"`
	Rows  int             `json:"rows"`
	Wells []hatetris.Well `json:"-"`
}

// Write writes sf to path atomically (rows Bar..Depth-1 of r, nil the
// real game's; a well with cells above the bar is an error). It sets Count
// and Rows.
func Write(path string, r *hatetris.Rules, sf *File) error {
	if r == nil {
		r = hatetris.Standard()
	}
	sf.Count, sf.Rows = len(sf.Wells), r.Depth-r.Bar
	for i := range sf.Wells {
		for y := range r.Bar {
			if sf.Wells[i][y] != 0 {
				return fmt.Errorf("samples: well %d has cells above the bar", i)
			}
		}
	}
	head, err := json.Marshal(sf)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		crc := crc32.New(castagnoli)
		bw := bufio.NewWriter(io.MultiWriter(w, crc))
		bw.WriteString(Magic)
		bw.Write(head)
		bw.WriteByte('\n')
		var b [2]byte
		for i := range sf.Wells {
			for _, row := range sf.Wells[i][r.Bar:r.Depth] {
				binary.LittleEndian.PutUint16(b[:], row)
				bw.Write(b[:])
			}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return binary.Write(w, binary.LittleEndian, crc.Sum32())
	})
}

// maxHeaderLine bounds the JSON header line.
const maxHeaderLine = 1 << 20

// Read reads a samples file written by Write for rules r. A path that is
// not a regular file, or whose size is not the one its header announces,
// is refused before the wells are read; the wells are then streamed.
// Rules nil are the real game's.
func Read(path string, r *hatetris.Rules) (*File, error) {
	if r == nil {
		r = hatetris.Standard()
	}
	most := int64(len(Magic)) + maxHeaderLine + 1 + 2*MaxWells*int64(r.Depth-r.Bar) + 4
	f, st, err := boundedfile.Open(path, most, "samples file")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("%w: %s %v", ErrInvalid, path, err)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := st.Size()
	// The checksum first, streamed: a file of the right size that is not
	// what was written (a sparse file of zeros) is refused before any
	// well is allocated.
	crc := crc32.New(castagnoli)
	var sum [4]byte
	if _, err := io.Copy(crc, io.LimitReader(f, max(size-4, 0))); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(f, sum[:]); err != nil || crc.Sum32() != binary.LittleEndian.Uint32(sum[:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrInvalid)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return decode(f, size, r)
}

// ErrInvalid is the error of a damaged or foreign samples file.
var ErrInvalid = errors.New("not a valid samples file")

// Parse decodes a samples file's bytes for rules r.
func Parse(data []byte, r *hatetris.Rules) (*File, error) {
	return decode(bytes.NewReader(data), int64(len(data)), r)
}

// decode reads a samples file of size bytes from in: the magic and the
// header line (at most 1 MiB), then, when size matches what the header
// announces, the wells, and checks the checksum.
func decode(in io.Reader, size int64, r *hatetris.Rules) (*File, error) {
	crc := crc32.New(castagnoli)
	br := bufio.NewReaderSize(io.TeeReader(io.LimitReader(in, max(size-4, 0)), crc), 1<<16)
	magic := make([]byte, len(Magic))
	if size < int64(len(Magic))+4 {
		return nil, fmt.Errorf("%w: no %q magic", ErrInvalid, Magic[:7])
	}
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != Magic {
		return nil, fmt.Errorf("%w: no %q magic", ErrInvalid, Magic[:7])
	}
	head, err := readLine(br, maxHeaderLine)
	if err != nil {
		return nil, err
	}
	var sf File
	if err := json.Unmarshal(head, &sf); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrInvalid, err)
	}
	rowBytes := size - 4 - int64(len(Magic)) - int64(len(head)) - 1
	if sf.Rows != r.Depth-r.Bar || sf.Count < 0 || sf.Count > MaxWells || rowBytes != 2*int64(sf.Count)*int64(sf.Rows) {
		return nil, fmt.Errorf("%w: %d wells of %d rows in %d bytes (want rows %d)", ErrInvalid, sf.Count, sf.Rows, rowBytes, r.Depth-r.Bar)
	}
	sf.Wells = make([]hatetris.Well, sf.Count)
	row := make([]byte, 2*sf.Rows)
	for i := range sf.Wells {
		if _, err := io.ReadFull(br, row); err != nil {
			return nil, fmt.Errorf("%w: well %d: %v", ErrInvalid, i, err)
		}
		for y := range sf.Rows {
			v := binary.LittleEndian.Uint16(row[2*y:])
			if v&^(1<<r.Width-1) != 0 {
				return nil, fmt.Errorf("%w: well %d row %d has cells outside a %d-wide well", ErrInvalid, i, y, r.Width)
			}
			sf.Wells[i][r.Bar+y] = v
		}
	}
	var sum [4]byte
	if _, err := io.ReadFull(in, sum[:]); err != nil || crc.Sum32() != binary.LittleEndian.Uint32(sum[:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrInvalid)
	}
	return &sf, nil
}

// readLine reads one line of at most limit bytes (without its newline).
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, fmt.Errorf("%w: header line longer than %d bytes", ErrInvalid, limit)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case err != bufio.ErrBufferFull:
			return nil, fmt.Errorf("%w: no header line", ErrInvalid)
		}
	}
}

// Distinct returns ws without repeats, first occurrences in order.
func Distinct(ws []hatetris.Well) []hatetris.Well {
	seen := make(map[hatetris.Well]struct{}, len(ws))
	out := ws[:0:0]
	for _, w := range ws {
		if _, ok := seen[w]; !ok {
			seen[w] = struct{}{}
			out = append(out, w)
		}
	}
	return out
}
