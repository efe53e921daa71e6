package format

import (
	"bytes"
	"context"
	"io"
	"math"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// Tuning of the text readers. Variables so that tests can exercise block
// and chunk boundaries with tiny inputs.
var (
	// blockSize is the size of the blocks read from the input.
	blockSize = 32 << 20
	// minChunk is the least size of the pieces a block is cut into.
	minChunk = 256 << 10
	// maxLineLen is the longest line accepted.
	maxLineLen = 1 << 20
)

// block is a run of complete lines read from the input.
type block struct {
	buf     []byte // backing buffer, recycled after use
	data    []byte // complete lines; only the last block may lack a final newline
	err     error  // read error met after data (not io.EOF)
	tooLong bool   // a line longer than maxLineLen starts the block
}

// blockReader reads blocks on its own goroutine, one ahead of the parser.
type blockReader struct {
	out  chan block
	free chan []byte
	done chan struct{}
}

func startBlockReader(ctx context.Context, r io.Reader) *blockReader {
	br := &blockReader{out: make(chan block, 1), free: make(chan []byte, 4), done: make(chan struct{})}
	go br.run(ctx, r)
	return br
}

// stop ends the reader goroutine and waits for it, so that the input can be
// closed safely afterwards.
func (br *blockReader) stop() {
	close(br.done)
	for range br.out {
	}
}

// recycle hands a block's buffer back for reuse.
func (br *blockReader) recycle(b block) {
	select {
	case br.free <- b.buf[:cap(b.buf)]:
	default:
	}
}

func (br *blockReader) send(b block) bool {
	select {
	case br.out <- b:
		return true
	case <-br.done:
		return false
	}
}

func (br *blockReader) run(ctx context.Context, r io.Reader) {
	defer close(br.out)
	var carry []byte
	// Blocks start small, so that small inputs stay cheap, and double up to
	// blockSize.
	size := min(blockSize, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			br.send(block{err: err})
			return
		}
		var buf []byte
		select {
		case buf = <-br.free:
		default:
		}
		if len(buf) < size || len(buf) < len(carry)+size/2 {
			buf = make([]byte, max(size, 2*len(carry)))
		}
		size = min(2*size, blockSize)
		n := copy(buf, carry)
		carry = carry[:0]
		var err error
		for {
			for n < len(buf) && err == nil {
				var m int
				m, err = r.Read(buf[n:])
				n += m
			}
			if err != nil || bytes.LastIndexByte(buf[:n], '\n') >= 0 {
				break
			}
			// A full buffer without a newline: one long line.
			if n >= maxLineLen {
				br.send(block{buf: buf, tooLong: true})
				return
			}
			buf = append(buf, make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
		if err == io.EOF {
			if n > 0 {
				if !br.send(block{buf: buf, data: buf[:n]}) {
					return
				}
			}
			return
		}
		if err != nil {
			br.send(block{buf: buf, err: err})
			return
		}
		cut := bytes.LastIndexByte(buf[:n], '\n') + 1
		carry = append(carry, buf[cut:n]...)
		if !br.send(block{buf: buf, data: buf[:cut]}) {
			return
		}
	}
}

// headerParser consumes the header lines of a text format and then
// describes its data lines.
type headerParser interface {
	// line examines one header line (without its line ending). consumed
	// false means the line is the first data line, to be parsed as data;
	// done true ends the header.
	line(l []byte, lineNo int64) (consumed, done bool, err error)
	// eof is called when the input ends inside the header.
	eof(lineNo int64) error
	// config returns the data-line configuration, once the header is done.
	config() *lineConfig
	// declared is the number of entries the header declares, or -1.
	declared() int64
	// describe turns a line error into a message.
	describe(r *chunkResult, text string) string
	// finish fills in the list's vertex count, directedness and the info.
	finish(el *graph.EdgeList, info *Info, maxID uint32, entries int64)
}

// readText reads a text format through the block pipeline.
func readText(ctx context.Context, src *source, fm Format, opts *ReadOptions, info *Info) (*graph.EdgeList, error) {
	name := src.name
	var hp headerParser
	switch fm {
	case MatrixMarket:
		hp = &mmHeader{name: name, opts: opts, size: src.size}
	case EdgeList, WeightedEdgeList:
		hp = &elHeader{name: name, opts: opts, weighted: fm == WeightedEdgeList}
	case DIMACS:
		hp = &grHeader{name: name, opts: opts, size: src.size}
	}
	workers := par.Workers(opts.Workers)
	br := startBlockReader(ctx, src.r)
	defer br.stop()

	var (
		lineNo     int64 // lines consumed so far
		headerDone bool
		cfg        *lineConfig
		declared   int64 = -1
		entries    int64
		maxID      uint32
		results    []*chunkResult
	)
	for blk := range br.out {
		if blk.err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, compressionErr(name, src.compression, lineNo, blk.err)
		}
		if blk.tooLong {
			return nil, formatErr(name, lineNo+1, "line longer than %d bytes (is this a %v file?)", maxLineLen, fm)
		}
		data := blk.data
		for !headerDone && len(data) > 0 {
			l := data
			next := len(data)
			if j := bytes.IndexByte(data, '\n'); j >= 0 {
				l, next = data[:j], j+1
			}
			l = bytes.TrimRight(l, "\r")
			consumed, done, err := hp.line(l, lineNo+1)
			if err != nil {
				return nil, err
			}
			if consumed {
				data = data[next:]
				lineNo++
			}
			if done {
				headerDone = true
				cfg = hp.config()
				cfg.limit = -1
				declared = hp.declared()
			}
		}
		if headerDone && len(data) > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			res := parseBlock(data, cfg, workers)
			for _, r := range res {
				if declared >= 0 && entries+r.entries > declared {
					// Find the line of the first entry beyond the count.
					c := *cfg
					c.limit = declared - entries
					var again chunkResult
					parseLines(data[r.lo:r.hi], &c, &again)
					r = &again
				}
				if r.code != codeNone {
					text := lineText(data[r.lo:r.hi], r.errOff)
					if r.code == codeTooMany {
						return nil, formatErr(name, lineNo+r.errLine+1, "more entries than the %d declared", declared)
					}
					return nil, formatErr(name, lineNo+r.errLine+1, "%s", hp.describe(r, text))
				}
				lineNo += r.lines
				entries += r.entries
				if len(r.src) > 0 {
					maxID = max(maxID, r.maxID)
				}
				r.lo, r.hi = 0, 0
				results = append(results, r)
			}
		}
		br.recycle(blk)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !headerDone {
		if err := hp.eof(lineNo); err != nil {
			return nil, err
		}
		cfg = hp.config()
		declared = hp.declared()
	}
	if declared >= 0 && entries < declared {
		return nil, kindErr(ErrTruncated, name, lineNo, nil, "truncated: expected %d entries, found %d", declared, entries)
	}
	el := concat(results, cfg.keepWeights, cfg.weights == wFloat, workers)
	hp.finish(el, info, maxID, entries)
	return el, nil
}

// parseBlock cuts data into pieces at line boundaries and parses them
// concurrently. The results are in file order.
func parseBlock(data []byte, cfg *lineConfig, workers int) []*chunkResult {
	parts := max(1, min(workers, len(data)/minChunk))
	var res []*chunkResult
	start := 0
	for p := 1; p < parts && start < len(data); p++ {
		target := len(data) * p / parts
		if target < start {
			continue
		}
		j := bytes.IndexByte(data[target:], '\n')
		if j < 0 {
			break
		}
		end := target + j + 1
		res = append(res, &chunkResult{lo: start, hi: end})
		start = end
	}
	if start < len(data) {
		res = append(res, &chunkResult{lo: start, hi: len(data)})
	}
	chunks := make([]par.Chunk, len(res))
	for i := range chunks {
		chunks[i] = par.Chunk{Index: i}
	}
	par.ForChunks(chunks, func(c par.Chunk) {
		r := res[c.Index]
		parseLines(data[r.lo:r.hi], cfg, r)
	})
	return res
}

// concat joins the chunk results in order into one edge list. When one
// chunk's weights are float32 (cfg.weights wFloat, or a chunk that
// switched under autoFloat; float says the former), every chunk's are: the others' integers are
// converted as the parser would round their decimals.
func concat(results []*chunkResult, weighted, float bool, workers int) *graph.EdgeList {
	offs := make([]int, len(results)+1)
	for i, r := range results {
		offs[i+1] = offs[i] + len(r.src)
		float = float || r.float
	}
	kind := graph.Uint32Weights
	if weighted && float {
		kind = graph.Float32Weights
	}
	m := offs[len(results)]
	if len(results) == 1 {
		r := results[0]
		el := &graph.EdgeList{Src: r.src, Dst: r.dst}
		if weighted {
			el.Weights, el.WeightKind = r.w, kind
		}
		return el
	}
	el := &graph.EdgeList{Src: make([]uint32, m), Dst: make([]uint32, m)}
	if weighted {
		el.Weights, el.WeightKind = make([]uint32, m), kind
	}
	par.Dynamic(len(results), workers, 1, func(i int) {
		r := results[i]
		copy(el.Src[offs[i]:], r.src)
		copy(el.Dst[offs[i]:], r.dst)
		if weighted {
			w := el.Weights[offs[i] : offs[i]+len(r.w)]
			copy(w, r.w)
			if float && !r.float {
				for x, v := range w {
					w[x] = math.Float32bits(float32(v))
				}
			}
		}
		results[i] = nil
	})
	return el
}
