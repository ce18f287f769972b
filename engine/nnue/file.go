package nnue

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/memlimit"
)

// Magic opens every weights file.
const Magic = "HLNNUE1\n"

// FormatVersion is the version this package writes and reads.
const FormatVersion = 1

// maxHeaderBytes bounds the JSON header.
const maxHeaderBytes = 1 << 20

// maxTensorBytes bounds the tensors (4 GiB of float32 would not be useful).
const maxTensorBytes = 1 << 31

// Header is the JSON header of a weights file. The fields from Width to
// CRC32 describe the tensors and are set by Write; the others are
// provenance, kept as read.
type Header struct {
	Format  string `json:"format"`  // "hatelab-nnue"
	Version int    `json:"version"` // FormatVersion
	// Width and Height are the geometry (columns, rows below the bar).
	Width  int `json:"width"`
	Height int `json:"height"`
	// Variant is "shared" or "positional".
	Variant string `json:"variant"`
	// Features is F, Active K, Hidden H.
	Features   int    `json:"features"`
	Active     int    `json:"active"`
	Hidden     int    `json:"hidden"`
	Activation string `json:"activation"` // "hardtanh", "crelu", "tanh"
	// Output is the activation training put on the output ("tanh" or
	// "linear"); the engine ranks on the value before it.
	Output string `json:"output"`
	// QA and QB are the wished quantisation scales (0: defaults); the
	// engine may lower them (see Quantize).
	QA int `json:"qa"`
	QB int `json:"qb"`
	// ScoreWeight: see Network.ScoreWeight.
	ScoreWeight float64 `json:"score_weight"`
	// Tensors lists the float32 tensors in file order with their shapes:
	// w1 [F,H], b1 [H], w2 [H], b2 [1].
	Tensors []TensorInfo `json:"tensors"`
	// CRC32 is the IEEE CRC-32 of the tensor bytes.
	CRC32 uint32 `json:"crc32"`

	// Name names the network, e.g. "gen-00".
	Name string `json:"name,omitempty"`
	// Generation is the training generation (0: not trained by the cycle).
	Generation int `json:"generation"`
	// Provenance says how the weights were made (command, data, seed).
	Provenance string `json:"provenance,omitempty"`
	// Metrics holds training or fit metrics (e.g. "valid_mse").
	Metrics map[string]float64 `json:"metrics,omitempty"`
}

// TensorInfo names a tensor and its shape.
type TensorInfo struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
}

// Write writes n as a weights file: Magic, the header's length (uint32
// little-endian), the JSON header, then the float32 tensors little-endian.
func Write(w io.Writer, n *Network) error {
	b, err := Marshal(n)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal returns the weights file of n.
func Marshal(n *Network) ([]byte, error) {
	if err := n.check(); err != nil {
		return nil, err
	}
	fs := n.Features
	if err := checkTensorSize(fs, n.Hidden); err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	h := n.Header
	h.Format, h.Version = "hatelab-nnue", FormatVersion
	h.Width, h.Height, h.Variant = fs.width, fs.height, fs.variant.String()
	h.Features, h.Active, h.Hidden = fs.count, fs.active, n.Hidden
	h.Activation = n.Activation.String()
	if h.Output == "" {
		h.Output = "linear"
	}
	h.ScoreWeight = n.ScoreWeight
	h.Tensors = tensorInfos(fs.count, n.Hidden)
	var body bytes.Buffer
	body.Grow(4 * (len(n.W1) + 2*n.Hidden + 1))
	for _, t := range [][]float32{n.W1, n.B1, n.W2, {n.B2}} {
		writeFloats(&body, t)
	}
	h.CRC32 = crc32.ChecksumIEEE(body.Bytes())
	js, err := json.Marshal(&h)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(Magic)+4+len(js)+body.Len())
	out = append(out, Magic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(js)))
	out = append(out, js...)
	return append(out, body.Bytes()...), nil
}

func tensorInfos(f, hidden int) []TensorInfo {
	return []TensorInfo{{"w1", []int{f, hidden}}, {"b1", []int{hidden}}, {"w2", []int{hidden}}, {"b2", []int{1}}}
}

func writeFloats(b *bytes.Buffer, v []float32) {
	var buf [4]byte
	for _, x := range v {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(x))
		b.Write(buf[:])
	}
}

// Save writes n to path atomically (internal/atomicfile: a temporary file
// with a unique name beside path, synced and renamed; removed on failure).
// A path that exists and is not a regular file is refused.
func Save(path string, n *Network) error {
	b, err := Marshal(n)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, 0o644, b)
}

// MaxFileBytes bounds a weights file: the magic, the header length, a
// header of at most 1 MiB and at most 2 GiB of tensors.
const MaxFileBytes = int64(len(Magic)) + 4 + maxHeaderBytes + maxTensorBytes

// Load reads a weights file. A path that is not a regular file, or whose
// size is not the one its header computes, is refused before the tensors
// are read.
func Load(path string) (*Network, error) {
	f, st, err := boundedfile.Open(path, MaxFileBytes, "weights file")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := read(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// Read reads a weights file from r, streaming: the header first (at most
// 1 MiB), then exactly the tensor bytes it announces, then end of input.
func Read(r io.Reader) (*Network, error) { return read(r, -1) }

// read is Read; size, when not negative, is the input's known length,
// checked against the header before the tensors are read.
func read(r io.Reader, size int64) (*Network, error) {
	pre := make([]byte, len(Magic)+4)
	if _, err := io.ReadFull(r, pre); err != nil || string(pre[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("not a hatelab NNUE weights file (bad magic)")
	}
	hl := binary.LittleEndian.Uint32(pre[len(Magic):])
	if hl > maxHeaderBytes || size >= 0 && int64(hl) > size-int64(len(pre)) {
		return nil, fmt.Errorf("weights header length %d out of range", hl)
	}
	head := make([]byte, hl)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, fmt.Errorf("weights header length %d out of range", hl)
	}
	h, fs, act, err := parseHeader(head)
	if err != nil {
		return nil, err
	}
	want := tensorBytes(fs, h.Hidden)
	if want > maxTensorBytes || size >= 0 && size-int64(len(pre))-int64(hl) != want {
		got := "more"
		if size >= 0 {
			got = fmt.Sprint(size - int64(len(pre)) - int64(hl))
		}
		return nil, fmt.Errorf("weights: %s tensor bytes, want %d", got, want)
	}
	// The tensors' bytes, the float network decoded from them and, in a
	// search, its int16 copy: checked before they are taken, so that a
	// network too large for what is left (a second one beside the first)
	// is a one-line refusal, not the runtime's out-of-memory crash.
	if err := memlimit.Check(fmt.Sprintf("a network of %d features and %d hidden units", fs.count, h.Hidden), uint64(want)*5/2); err != nil {
		return nil, err
	}
	body := make([]byte, want)
	if n, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("weights: %d tensor bytes, want %d", n, want)
	}
	if n, _ := io.ReadFull(r, make([]byte, 1)); n != 0 {
		return nil, fmt.Errorf("weights: more than the %d tensor bytes the header announces", want)
	}
	return decode(h, fs, act, body)
}

// Unmarshal parses a weights file; any defect is a one-line error.
func Unmarshal(b []byte) (*Network, error) {
	if len(b) < len(Magic)+4 || string(b[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("not a hatelab NNUE weights file (bad magic)")
	}
	hl := binary.LittleEndian.Uint32(b[len(Magic):])
	if hl > maxHeaderBytes || int(hl) > len(b)-len(Magic)-4 {
		return nil, fmt.Errorf("weights header length %d out of range", hl)
	}
	rest := b[len(Magic)+4:]
	h, fs, act, err := parseHeader(rest[:hl])
	if err != nil {
		return nil, err
	}
	body := rest[hl:]
	if want := tensorBytes(fs, h.Hidden); want > maxTensorBytes || int64(len(body)) != want {
		return nil, fmt.Errorf("weights: %d tensor bytes, want %d", len(body), want)
	}
	return decode(h, fs, act, body)
}

// tensorBytes is the size of the tensors of a network of fs and hidden.
func tensorBytes(fs *FeatureSet, hidden int) int64 {
	return 4 * (int64(fs.count)*int64(hidden) + 2*int64(hidden) + 1)
}

// checkTensorSize refuses a network of fs and hidden whose tensors a
// weights file cannot hold (maxTensorBytes).
func checkTensorSize(fs *FeatureSet, hidden int) error {
	if b := tensorBytes(fs, hidden); b > maxTensorBytes {
		return fmt.Errorf("%s with %d hidden units: %d tensor bytes, more than a weights file's %d", fs, hidden, b, int64(maxTensorBytes))
	}
	return nil
}

// parseHeader decodes and checks the JSON header.
func parseHeader(js []byte) (*Header, *FeatureSet, Activation, error) {
	var h Header
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, nil, 0, fmt.Errorf("weights header: %v", oneLine(err))
	}
	if h.Format != "hatelab-nnue" || h.Version != FormatVersion {
		return nil, nil, 0, fmt.Errorf("weights header: format %q version %d, want hatelab-nnue version %d", h.Format, h.Version, FormatVersion)
	}
	v, err := ParseVariant(h.Variant)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("weights header: %v", err)
	}
	fs, err := NewFeatureSet(v, h.Width, h.Height)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("weights header: %v", err)
	}
	act, err := ParseActivation(h.Activation)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("weights header: %v", err)
	}
	if h.Features != fs.count || h.Active != fs.active {
		return nil, nil, 0, fmt.Errorf("weights header: %d features, %d active; the %s geometry has %d, %d", h.Features, h.Active, v, fs.count, fs.active)
	}
	if h.Hidden < 1 || h.Hidden > MaxHidden {
		return nil, nil, 0, fmt.Errorf("weights header: hidden size %d out of range 1..%d", h.Hidden, MaxHidden)
	}
	if h.Output != "tanh" && h.Output != "linear" {
		return nil, nil, 0, fmt.Errorf("weights header: output %q (want tanh or linear)", h.Output)
	}
	if h.QA < 0 || h.QB < 0 {
		return nil, nil, 0, fmt.Errorf("weights header: negative scale")
	}
	want := tensorInfos(fs.count, h.Hidden)
	if len(h.Tensors) != len(want) {
		return nil, nil, 0, fmt.Errorf("weights header: %d tensors, want 4 (w1 b1 w2 b2)", len(h.Tensors))
	}
	for i, t := range want {
		got := h.Tensors[i]
		if got.Name != t.Name || fmt.Sprint(got.Shape) != fmt.Sprint(t.Shape) {
			return nil, nil, 0, fmt.Errorf("weights header: tensor %d is %s%v, want %s%v", i, got.Name, got.Shape, t.Name, t.Shape)
		}
	}
	return &h, fs, act, nil
}

// decode checks the tensor bytes' checksum and builds the network.
func decode(h *Header, fs *FeatureSet, act Activation, body []byte) (*Network, error) {
	if c := crc32.ChecksumIEEE(body); c != h.CRC32 {
		return nil, fmt.Errorf("weights: checksum %08x, header says %08x (corrupt file)", c, h.CRC32)
	}
	n, err := NewNetwork(fs, h.Hidden, act)
	if err != nil {
		return nil, err
	}
	off := 0
	for _, t := range [][]float32{n.W1, n.B1, n.W2} {
		for i := range t {
			t[i] = math.Float32frombits(binary.LittleEndian.Uint32(body[off:]))
			off += 4
		}
	}
	n.B2 = math.Float32frombits(binary.LittleEndian.Uint32(body[off:]))
	n.ScoreWeight = h.ScoreWeight
	n.Header = *h
	if err := n.check(); err != nil {
		return nil, fmt.Errorf("weights: %v", err)
	}
	return n, nil
}

func oneLine(err error) string {
	return string(bytes.ReplaceAll([]byte(err.Error()), []byte("\n"), []byte("; ")))
}
