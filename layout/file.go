package layout

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/zstd"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/atomicfile"
	"github.com/mgraph-dev/mgraph/internal/crc32c"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/internal/readn"
)

// The on-disk format (all integers little-endian):
//
//	offset  size  field
//	0       8     magic "MGLAYOUT"
//	8       4     format version (FormatVersion)
//	12      4     header length H in bytes, the trailing header CRC included
//	16      4     flags: bit 0 weighted, bit 1 directed, bit 2 float32
//	              weights (the weight sections hold float32 bit patterns;
//	              needs bit 0). An mgraph older than float weights refuses
//	              bit 2 as an unknown flag; version 1 files without it are
//	              uint32 weights, as they always were.
//	20      4     chunk size: raw bytes per compressed chunk
//	24      8     n (vertices)
//	32      8     m (arcs)
//	40      4     PanelSize
//	44      4     HeavyColumns
//	48      4     SegmentSize
//	52      4     HighGroups
//	56      8     HeavyThreshold
//	64      4     k, the number of group thresholds
//	68      4     number of sections (26 in version 1)
//	72      8·k   GroupThresholds
//	then, per section in docs/layout.md order:
//	        1     name length, then the name (the Layout field name)
//	        1     element size in bytes
//	        8     raw bytes
//	        8     stored (compressed) bytes
//	        4     CRC-32C (Castagnoli) of the stored bytes
//	        4     CRC-32C of the raw bytes
//	then, per section, per chunk (ceil(raw / chunk size) of them):
//	        4     stored bytes of the chunk
//	H-4     4     CRC-32C of header bytes [0, H-4)
//	H       ...   the sections' stored bytes, in order, without gaps
//
// A section's raw bytes are the array in memory order. They are cut into
// chunks of the chunk size (the last may be shorter), each compressed as
// one independent zstd frame, so chunks compress and decompress in
// parallel and the output does not depend on the number of workers.

// Magic is the first 8 bytes of every layout file.
const Magic = "MGLAYOUT"

// FormatVersion is the version of the file format this package writes and
// reads. Files of any other version are rejected.
const FormatVersion = 1

// DefaultLevel is the zstd level Save uses when SaveOptions.Level is 0.
const DefaultLevel = 3

const (
	defaultChunkSize = 4 << 20
	fixedHeader      = 72
	maxHeader        = 64 << 20
	// maxRatio bounds raw/stored for one zstd frame: a 4-byte RLE block
	// decodes to at most 128 KiB.
	maxRatio      = 32768
	flagWeighted  = 1
	flagDirected  = 2
	flagFloat32   = 4
	flagsKnown    = flagWeighted | flagDirected | flagFloat32
	minChunkSize  = 4 << 10
	maxChunkSize  = 1 << 30
	maxNameLength = 64
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFormat is wrapped by every error Load returns for a file that is not
// a valid layout file (bad magic, unsupported version, corrupt or truncated
// data), as opposed to I/O errors of the reader itself.
var ErrFormat = errors.New("invalid layout file")

// ErrVersion is wrapped (with ErrFormat) by the error for a file of
// another format version.
var ErrVersion = errors.New("unsupported layout file version")

func formatErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))
}

// checkLittleEndian refuses big-endian machines: sections are the arrays'
// memory images, which are little-endian on disk.
func checkLittleEndian() error {
	x := uint16(1)
	if *(*byte)(unsafe.Pointer(&x)) != 1 {
		return errors.New("layout files need a little-endian machine; this one is big-endian")
	}
	return nil
}

// SaveOptions tune Save.
type SaveOptions struct {
	// Level is the zstd compression level, 1 (fastest) to 22 (smallest);
	// 0 means DefaultLevel.
	Level int
	// Workers compress chunks in parallel; 0 means GOMAXPROCS. The output
	// does not depend on it.
	Workers int
}

// sectionEntry is one row of the section table.
type sectionEntry struct {
	name              string
	elem              int
	raw, stored       uint64
	crcStored, crcRaw uint32
	chunks            []uint32 // stored bytes of each chunk
}

func numChunks(raw, chunk uint64) uint64 { return (raw + chunk - 1) / chunk }

// headerSize returns the header length for the given table.
func headerSize(p Params, table []sectionEntry, chunk uint64) uint64 {
	h := uint64(fixedHeader + 8*len(p.GroupThresholds))
	for _, s := range table {
		h += 1 + uint64(len(s.name)) + 1 + 8 + 8 + 4 + 4 + 4*numChunks(s.raw, chunk)
	}
	return h + 4
}

func encodeHeader(l *Layout, table []sectionEntry, chunk uint64) []byte {
	size := headerSize(l.Params, table, chunk)
	b := make([]byte, 0, size)
	le := binary.LittleEndian
	b = append(b, Magic...)
	b = le.AppendUint32(b, FormatVersion)
	b = le.AppendUint32(b, uint32(size))
	var flags uint32
	if l.Weighted {
		flags |= flagWeighted
		if l.WeightKind == graph.Float32Weights {
			flags |= flagFloat32
		}
	}
	if l.Directed {
		flags |= flagDirected
	}
	b = le.AppendUint32(b, flags)
	b = le.AppendUint32(b, uint32(chunk))
	b = le.AppendUint64(b, l.NumVertices)
	b = le.AppendUint64(b, l.NumArcs)
	p := l.Params
	b = le.AppendUint32(b, p.PanelSize)
	b = le.AppendUint32(b, p.HeavyColumns)
	b = le.AppendUint32(b, p.SegmentSize)
	b = le.AppendUint32(b, p.HighGroups)
	b = le.AppendUint64(b, p.HeavyThreshold)
	b = le.AppendUint32(b, uint32(len(p.GroupThresholds)))
	b = le.AppendUint32(b, uint32(len(table)))
	for _, t := range p.GroupThresholds {
		b = le.AppendUint64(b, t)
	}
	for _, s := range table {
		b = append(b, byte(len(s.name)))
		b = append(b, s.name...)
		b = append(b, byte(s.elem))
		b = le.AppendUint64(b, s.raw)
		b = le.AppendUint64(b, s.stored)
		b = le.AppendUint32(b, s.crcStored)
		b = le.AppendUint32(b, s.crcRaw)
	}
	for _, s := range table {
		for _, c := range s.chunks {
			b = le.AppendUint32(b, c)
		}
	}
	return le.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// Save writes l to w in the layout file format, compressing chunks in
// parallel. When w is an io.WriteSeeker (a file) the data streams through
// and the header is written last; otherwise the compressed data is
// buffered in memory first. The layout must pass CheckShape.
func Save(w io.Writer, l *Layout, opts SaveOptions) error {
	if err := checkLittleEndian(); err != nil {
		return err
	}
	if err := l.CheckShape(); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	level := opts.Level
	if level == 0 {
		level = DefaultLevel
	}
	if level < 1 || level > 22 {
		return fmt.Errorf("save: zstd level %d outside 1..22", level)
	}
	workers := par.Workers(opts.Workers)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
		zstd.WithEncoderConcurrency(workers), zstd.WithEncoderCRC(false))
	if err != nil {
		return fmt.Errorf("save: %w", err)
	}
	defer enc.Close()

	chunk := uint64(defaultChunkSize)
	refs := l.refs()
	table := make([]sectionEntry, len(refs))
	for i, r := range refs {
		table[i] = sectionEntry{name: r.name, elem: r.elem, raw: r.length() * uint64(r.elem)}
		table[i].chunks = make([]uint32, numChunks(table[i].raw, chunk))
	}
	hsize := headerSize(l.Params, table, chunk)
	if hsize > maxHeader {
		return fmt.Errorf("save: header of %d bytes is too large", hsize)
	}

	ws, seekable := w.(io.WriteSeeker)
	var start int64
	out := w
	var buf *bytes.Buffer
	if seekable {
		if start, err = ws.Seek(0, io.SeekCurrent); err != nil {
			seekable = false
		}
	}
	if seekable {
		if _, err := w.Write(make([]byte, hsize)); err != nil {
			return fmt.Errorf("save: %w", err)
		}
	} else {
		buf = new(bytes.Buffer)
		out = buf
	}
	if err := writeSections(out, refs, table, chunk, enc, workers); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	hdr := encodeHeader(l, table, chunk)
	if seekable {
		if _, err := ws.Seek(start, io.SeekStart); err != nil {
			return fmt.Errorf("save: %w", err)
		}
		if _, err := w.Write(hdr); err != nil {
			return fmt.Errorf("save: %w", err)
		}
		_, err = ws.Seek(0, io.SeekEnd)
		if err != nil {
			return fmt.Errorf("save: %w", err)
		}
		return nil
	}
	if _, err := w.Write(hdr); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	if _, err := buf.WriteTo(w); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	return nil
}

// chunkJob is one chunk to compress.
type chunkJob struct {
	sec, idx int
	raw      []byte
	out      []byte
	// The CRC-32C of raw and of out, which the writer combines into the
	// section's.
	crcRaw, crcOut uint32
	done           chan struct{}
}

// writeSections compresses every chunk (workers at a time, a bounded window
// ahead of the writer) and writes them in order, filling in the table.
func writeSections(w io.Writer, refs []sectionRef, table []sectionEntry, chunk uint64, enc *zstd.Encoder, workers int) error {
	var jobs []*chunkJob
	for i, r := range refs {
		data := r.bytes()
		for c := range table[i].chunks {
			lo := uint64(c) * chunk
			hi := min(lo+chunk, uint64(len(data)))
			jobs = append(jobs, &chunkJob{sec: i, idx: c, raw: data[lo:hi], done: make(chan struct{})})
		}
	}
	window := make(chan struct{}, 2*workers+2)
	queue := make(chan *chunkJob)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range queue {
				j.out = enc.EncodeAll(j.raw, make([]byte, 0, len(j.raw)/2+64))
				j.crcRaw = crc32.Checksum(j.raw, castagnoli)
				j.crcOut = crc32.Checksum(j.out, castagnoli)
				close(j.done)
			}
		})
	}
	stop := make(chan struct{})
	go func() {
		defer close(queue)
		for _, j := range jobs {
			select {
			case window <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case queue <- j:
			case <-stop:
				return
			}
		}
	}()
	var werr error
	for _, j := range jobs {
		<-j.done
		s := &table[j.sec]
		s.crcRaw = crc32c.Combine(s.crcRaw, j.crcRaw, uint64(len(j.raw)))
		s.crcStored = crc32c.Combine(s.crcStored, j.crcOut, uint64(len(j.out)))
		s.stored += uint64(len(j.out))
		s.chunks[j.idx] = uint32(len(j.out))
		if _, err := w.Write(j.out); err != nil {
			werr = err
			break
		}
		j.out = nil
		<-window
	}
	close(stop) // the producer stops and closes the queue; workers finish what they took
	wg.Wait()
	return werr
}

// SaveFile writes l to path atomically: to a temporary file in the same
// directory, synced, then renamed over path. A crash or error never leaves
// a partial file under path.
func SaveFile(path string, l *Layout, opts SaveOptions) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	defer f.Abort()
	if err := Save(f, l, opts); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// HasMagic reports whether b starts with the layout file magic.
func HasMagic(b []byte) bool { return len(b) >= len(Magic) && string(b[:len(Magic)]) == Magic }

// IsLayoutFile reports whether the file at path starts with the layout
// magic (it does not check the rest).
func IsLayoutFile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	b := make([]byte, len(Magic))
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, err
	}
	return HasMagic(b[:n]), nil
}

// LoadFile reads a layout file written by SaveFile.
func LoadFile(path string) (*Layout, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load layout: %w", err)
	}
	defer f.Close()
	l, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("load layout %s: %w", path, err)
	}
	return l, nil
}

// hreader decodes the header with bounds checks.
type hreader struct {
	b   []byte
	off int
	err error
}

func (h *hreader) take(n int) []byte {
	if h.err != nil {
		return nil
	}
	if n < 0 || n > len(h.b)-h.off {
		h.err = formatErr("header ends early (at byte %d, %d more needed)", h.off, n)
		return nil
	}
	s := h.b[h.off : h.off+n]
	h.off += n
	return s
}

func (h *hreader) u8() uint8 {
	if s := h.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (h *hreader) u32() uint32 {
	if s := h.take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (h *hreader) u64() uint64 {
	if s := h.take(8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

// remaining returns the number of bytes left in r when r can seek, or -1.
func remaining(r io.Reader) int64 {
	s, ok := r.(io.Seeker)
	if !ok {
		return -1
	}
	cur, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return -1
	}
	end, err := s.Seek(0, io.SeekEnd)
	if err != nil {
		return -1
	}
	if _, err := s.Seek(cur, io.SeekStart); err != nil {
		return -1
	}
	return end - cur
}

// readerAtSeeker is a file: positioned reads and its offset.
type readerAtSeeker interface {
	io.ReaderAt
	io.Seeker
}

// readPiece is the bytes one goroutine of readSection reads at a time.
const readPiece = 8 << 20

// readSection reads the n stored bytes of a section: from a file, when the
// size was checked against it (sized), with positioned reads on all cores
// (one thread's reads were a third of loading kron:24's cached layout),
// leaving the file's offset after them; otherwise as readFull does.
func readSection(r io.Reader, n uint64, what string, sized bool) ([]byte, error) {
	f, ok := r.(readerAtSeeker)
	if !ok || !sized || n < 2*readPiece {
		return readFull(r, n, what, sized)
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return readFull(r, n, what, sized)
	}
	buf := make([]byte, n)
	pieces := int((n + readPiece - 1) / readPiece)
	errs := make([]error, pieces)
	par.Dynamic(pieces, 0, 1, func(i int) {
		lo := uint64(i) * readPiece
		hi := min(lo+readPiece, n)
		if k, err := f.ReadAt(buf[lo:hi], pos+int64(lo)); err != nil && !(errors.Is(err, io.EOF) && uint64(k) == hi-lo) {
			errs[i] = err
		}
	})
	for _, err := range errs {
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, formatErr("truncated: %s ends early", what)
			}
			return nil, fmt.Errorf("read %s: %w", what, err)
		}
	}
	if _, err := f.Seek(pos+int64(n), io.SeekStart); err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	return buf, nil
}

// readFull reads exactly n bytes. Unless sized (n was checked against the
// bytes the reader holds), it grows the buffer as data arrives (readn.Read),
// so that a size read from a corrupt header cannot force a large allocation
// beyond what the reader actually holds.
func readFull(r io.Reader, n uint64, what string, sized bool) ([]byte, error) {
	var buf []byte
	var err error
	if sized {
		buf = make([]byte, n)
		var k int
		k, err = io.ReadFull(r, buf)
		buf = buf[:k]
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
	} else {
		buf, err = readn.Read(r, n)
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, formatErr("truncated: %s has %d of its %d bytes", what, len(buf), n)
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	return buf, nil
}

// Load reads a layout written by Save. It verifies the magic, the format
// version, the header checksum, every size (against the graph sizes and
// parameters, and against the data actually present) before allocating,
// each section's checksums (stored and raw), and finally the layout's shape
// (CheckShape). Errors for bad files wrap ErrFormat (and ErrVersion for
// another version); Load never panics on bad input.
func Load(r io.Reader) (*Layout, error) {
	if err := checkLittleEndian(); err != nil {
		return nil, err
	}
	avail := remaining(r)
	prefix := make([]byte, 16)
	if k, err := io.ReadFull(r, prefix); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			if HasMagic(prefix[:k]) || k < len(Magic) && string(prefix[:k]) == Magic[:k] {
				return nil, formatErr("truncated: %d bytes, shorter than the header", k)
			}
			return nil, formatErr("not a layout file (%d bytes, no %q magic)", k, Magic)
		}
		return nil, fmt.Errorf("read header: %w", err)
	}
	if !HasMagic(prefix) {
		return nil, formatErr("not a layout file (no %q magic)", Magic)
	}
	le := binary.LittleEndian
	if v := le.Uint32(prefix[8:]); v != FormatVersion {
		return nil, fmt.Errorf("%w: %w: the file has format version %d, this mgraph reads version %d; rebuild it with 'mgraph preprocess'",
			ErrFormat, ErrVersion, v, FormatVersion)
	}
	hlen := uint64(le.Uint32(prefix[12:]))
	if hlen < fixedHeader+4 || hlen > maxHeader || (avail >= 0 && hlen > uint64(avail)) {
		return nil, formatErr("header length %d is impossible (file has %d bytes)", hlen, avail)
	}
	rest, err := readFull(r, hlen-16, "header", false)
	if err != nil {
		return nil, err
	}
	hdr := append(prefix, rest...)
	if got, want := crc32.Checksum(hdr[:hlen-4], castagnoli), le.Uint32(hdr[hlen-4:]); got != want {
		return nil, formatErr("header checksum mismatch (stored %08x, computed %08x): the file is corrupt", want, got)
	}
	h := &hreader{b: hdr[:hlen-4], off: 16}
	flags := h.u32()
	chunk := uint64(h.u32())
	l := &Layout{NumVertices: h.u64(), NumArcs: h.u64()}
	l.Params.PanelSize = h.u32()
	l.Params.HeavyColumns = h.u32()
	l.Params.SegmentSize = h.u32()
	l.Params.HighGroups = h.u32()
	l.Params.HeavyThreshold = h.u64()
	k := h.u32()
	nsec := h.u32()
	if h.err != nil {
		return nil, h.err
	}
	if flags&^flagsKnown != 0 {
		return nil, formatErr("unknown flags %#x", flags)
	}
	l.Weighted, l.Directed = flags&flagWeighted != 0, flags&flagDirected != 0
	if flags&flagFloat32 != 0 {
		if !l.Weighted {
			return nil, formatErr("flags %#x: float32 weights without weights", flags)
		}
		l.WeightKind = graph.Float32Weights
	}
	if chunk < minChunkSize || chunk > maxChunkSize {
		return nil, formatErr("chunk size %d outside [%d, %d]", chunk, minChunkSize, maxChunkSize)
	}
	if k > maxThresholds {
		return nil, formatErr("%d group thresholds; at most %d", k, maxThresholds)
	}
	if nsec != numSections {
		return nil, formatErr("%d sections, version %d has %d", nsec, FormatVersion, numSections)
	}
	l.Params.GroupThresholds = make([]uint64, k)
	for i := range l.Params.GroupThresholds {
		l.Params.GroupThresholds[i] = h.u64()
	}
	if err := l.Params.Validate(); err != nil {
		return nil, formatErr("%v", err)
	}
	table := make([]sectionEntry, nsec)
	lens := make([]uint64, nsec)
	refs := l.refs()
	var totalChunks, totalStored uint64
	for i := range table {
		s := &table[i]
		nl := int(h.u8())
		s.name = string(h.take(nl))
		s.elem = int(h.u8())
		s.raw, s.stored = h.u64(), h.u64()
		s.crcStored, s.crcRaw = h.u32(), h.u32()
		if h.err != nil {
			return nil, h.err
		}
		if s.name != refs[i].name || s.elem != refs[i].elem {
			return nil, formatErr("section %d is %q with %d-byte elements, want %q with %d-byte elements", i, s.name, s.elem, refs[i].name, refs[i].elem)
		}
		if s.raw%uint64(s.elem) != 0 {
			return nil, formatErr("section %s: %d raw bytes is not a multiple of %d", s.name, s.raw, s.elem)
		}
		lens[i] = s.raw / uint64(s.elem)
		totalChunks += numChunks(s.raw, chunk)
		if totalChunks > uint64(len(h.b)) {
			return nil, formatErr("section %s: %d raw bytes need more chunks than the header lists", s.name, s.raw)
		}
		if s.stored > 1<<62 || totalStored+s.stored > 1<<62 {
			return nil, formatErr("section %s: stored size %d is impossible", s.name, s.stored)
		}
		totalStored += s.stored
	}
	for i := range table {
		s := &table[i]
		s.chunks = make([]uint32, numChunks(s.raw, chunk))
		var sum uint64
		for c := range s.chunks {
			s.chunks[c] = h.u32()
			if h.err != nil {
				return nil, h.err
			}
			sum += uint64(s.chunks[c])
			rawChunk := min(chunk, s.raw-uint64(c)*chunk)
			if uint64(s.chunks[c])*maxRatio < rawChunk {
				return nil, formatErr("section %s, chunk %d: %d stored bytes cannot hold %d raw bytes", s.name, c, s.chunks[c], rawChunk)
			}
		}
		if sum != s.stored {
			return nil, formatErr("section %s: chunks hold %d bytes, the table says %d", s.name, sum, s.stored)
		}
	}
	if h.off != len(h.b) {
		return nil, formatErr("header has %d unexplained bytes", len(h.b)-h.off)
	}
	if avail >= 0 && hlen+totalStored != uint64(avail) {
		return nil, formatErr("file has %d bytes, the header describes %d: truncated or trailing data", avail, hlen+totalStored)
	}
	if err := checkLengths(l.NumVertices, l.NumArcs, l.Weighted, l.Params, lens); err != nil {
		return nil, formatErr("%v", err)
	}

	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(chunk))
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	defer dec.Close()
	for i, s := range table {
		stored, err := readSection(r, s.stored, "section "+s.name, avail >= 0)
		if err != nil {
			return nil, err
		}
		if got := crc32c.Checksum(stored, 0); got != s.crcStored {
			return nil, formatErr("section %s: checksum of the stored bytes mismatch (stored %08x, computed %08x): the file is corrupt", s.name, s.crcStored, got)
		}
		raw := refs[i].allocate(lens[i])
		if err := decodeChunks(dec, stored, raw, s, chunk); err != nil {
			return nil, err
		}
		if got := crc32c.Checksum(raw, 0); got != s.crcRaw {
			return nil, formatErr("section %s: checksum of the decompressed bytes mismatch (stored %08x, computed %08x)", s.name, s.crcRaw, got)
		}
	}
	if avail < 0 {
		var one [1]byte
		if k, _ := io.ReadFull(r, one[:]); k != 0 {
			return nil, formatErr("trailing data after the last section")
		}
	}
	if err := l.CheckShape(); err != nil {
		return nil, formatErr("%v", err)
	}
	if l.WeightKind == graph.Float32Weights {
		for _, w := range [][]uint32{l.SparseWeights, l.LightWeights, l.HeavyWeights} {
			if err := graph.CheckFloat32Weights(w); err != nil {
				return nil, formatErr("float32 weights: %v", err)
			}
		}
	}
	l.Normalize()
	return l, nil
}

// decodeChunks decompresses a section's chunks in parallel into raw.
func decodeChunks(dec *zstd.Decoder, stored, raw []byte, s sectionEntry, chunk uint64) error {
	type job struct {
		src, dst []byte
		idx      int
	}
	jobs := make([]job, len(s.chunks))
	var off uint64
	for c, size := range s.chunks {
		lo := uint64(c) * chunk
		hi := min(lo+chunk, s.raw)
		jobs[c] = job{src: stored[off : off+uint64(size)], dst: raw[lo:hi:hi], idx: c}
		off += uint64(size)
	}
	errs := make([]error, len(jobs))
	par.Dynamic(len(jobs), 0, 1, func(i int) {
		j := jobs[i]
		out, err := dec.DecodeAll(j.src, j.dst[:0])
		switch {
		case err != nil:
			errs[i] = formatErr("section %s, chunk %d: %v", s.name, j.idx, err)
		case len(out) != len(j.dst) || (len(out) > 0 && &out[0] != &j.dst[0]):
			errs[i] = formatErr("section %s, chunk %d: decompressed to %d bytes, want %d", s.name, j.idx, len(out), len(j.dst))
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
