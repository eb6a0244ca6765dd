package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"bhtop/event"
)

// Decoded is one journal record with its frame's events, decoded ahead of
// folding by ScanDecoded.
type Decoded struct {
	Record
	// Events are the frame's events (event.Decoder's Decode of Frame); nil
	// for a bad record.
	Events []event.Event
}

// Block sizes for ScanDecoded: a block holds about blockBytes of lines (or
// blockLines lines), enough to make handing it to a worker cheap and few
// enough that the blocks in flight stay small: a decoded event takes
// about 1 KiB, so a block's events are 0.5 MiB, and the folder finds
// them still in a cache.
const (
	blockBytes = 160 << 10
	blockLines = 512
)

// rawLine is one line of a block: where its bytes are in the block's data
// and what the Reader learned reading it.
type rawLine struct {
	start, end int
	line       int
	long, cut  bool
}

// block is a run of journal lines read ahead, decoded by one worker, then
// folded in order.
type block struct {
	data  []byte
	lines []rawLine
	recs  []Decoded
	dec   event.Decoder
	ready chan struct{} // one token when recs are decoded
}

// blockPool keeps the blocks of finished scans for the next one: a
// block's buffers (its lines' bytes, its decoded events, ~1 KiB each)
// grow to about 1 MiB while it is filled, and a scan holds several.
var blockPool sync.Pool

// ScanDecoded reads every record of r like Scan, and calls fn for each in
// journal order on the calling goroutine, with the frame already decoded:
// lines are read in blocks, and the blocks are parsed and decoded on up to
// workers goroutines while earlier ones are folded. A record and its
// events are valid only during the call. A read error stops the scan
// after the records before it, as in Scan.
func ScanDecoded(r io.Reader, workers int, fn func(d *Decoded)) error {
	return scanDecoded(&lineReader{r: skipBOM(r), blockBytes: blockBytes, blockLines: blockLines}, workers, fn)
}

func scanDecoded(lr *lineReader, workers int, fn func(d *Decoded)) error {
	workers = max(workers, 1)
	n := 2*workers + 2 // blocks in flight: each worker busy, the folder busy, one read ahead
	free := make(chan *block, n)
	blocks := make([]*block, n)
	for i := range blocks {
		b, _ := blockPool.Get().(*block)
		if b == nil {
			b = &block{ready: make(chan struct{}, 1)}
		}
		blocks[i] = b
		free <- b
	}
	defer func() {
		for _, b := range blocks {
			b.recs = b.recs[:0]
			blockPool.Put(b)
		}
	}()
	work, order := make(chan *block, n), make(chan *block, n)
	var readErr error
	go func() {
		defer close(order)
		defer close(work)
		readErr = lr.readBlocks(free, work, order)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for b := range work {
				b.decode()
				b.ready <- struct{}{}
			}
		})
	}
	for b := range order {
		<-b.ready
		for i := range b.recs {
			fn(&b.recs[i])
		}
		free <- b
	}
	wg.Wait()
	if readErr != nil {
		return fmt.Errorf("read journal: %w", readErr)
	}
	return nil
}

// lineReader splits a journal into the lines of blocks as Reader does
// (blank lines skipped, a line over MaxLine flagged long, the last line
// cut when the journal does not end in a line break), reading straight
// into each block's buffer: one copy of the journal, none per line.
type lineReader struct {
	r                      io.Reader
	blockBytes, blockLines int
	carry                  []byte // the lines read ahead of the last block (the last one begun)
	lineNo                 int
	err                    error // the read error; io.EOF at the end
	// dropped counts the bytes of the current line already dropped: it
	// is over MaxLine, and only its length still matters.
	dropped int
}

// readBlocks fills blocks from free with lines and hands each to the
// workers and, in order, to the folder; it returns the read error (with
// the line it was in), nil at the end of the journal.
func (lr *lineReader) readBlocks(free <-chan *block, work, order chan<- *block) error {
	for {
		b := <-free
		done := lr.fill(b)
		if len(b.lines) > 0 {
			order <- b
			work <- b
		}
		switch {
		case !done:
		case errors.Is(lr.err, io.EOF):
			return nil
		default:
			return fmt.Errorf("line %d: %w", lr.lineNo+1, lr.err)
		}
	}
}

// fill reads lines into b until it holds blockBytes of them or
// blockLines lines, or the journal ends (done: every line is read).
func (lr *lineReader) fill(b *block) (done bool) {
	b.data, b.lines = append(b.data[:0], lr.carry...), b.lines[:0]
	lr.carry = lr.carry[:0]
	start, scan := 0, 0 // the current line starts at start; no line break in [start, scan)
	for {
		for len(b.lines) < lr.blockLines {
			k := bytes.IndexByte(b.data[scan:], '\n')
			if k < 0 {
				break
			}
			end := scan + k
			lr.line(b, start, end, false)
			start, scan = end+1, end+1
		}
		if len(b.lines) >= lr.blockLines || lr.err != nil || len(b.data) >= lr.blockBytes && len(b.lines) > 0 {
			break
		}
		if len(b.lines) == 0 && start > 0 { // blank lines only: keep no bytes of them
			b.data = b.data[:copy(b.data, b.data[start:])]
			start = 0
		}
		scan = len(b.data)
		if scan-start > MaxLine { // too long already: keep its length only
			lr.dropped += scan - start
			b.data, scan = b.data[:start], start
		}
		if cap(b.data)-len(b.data) < 4096 {
			b.data = slices.Grow(b.data, max(lr.blockBytes, 4096))
		}
		n, err := lr.r.Read(b.data[len(b.data):cap(b.data)])
		b.data = b.data[:len(b.data)+n]
		lr.err = err
	}
	if len(b.lines) < lr.blockLines && lr.err != nil {
		// Everything is read: the rest is the last line, without its line
		// break (or, after an error, the part of a line read before it).
		if errors.Is(lr.err, io.EOF) && (start < len(b.data) || lr.dropped > 0) {
			lr.line(b, start, len(b.data), true)
		}
		return true
	}
	lr.carry = append(lr.carry, b.data[start:]...)
	b.data = b.data[:start]
	return false
}

// line records the line b.data[start:end] (end at its line break, or at
// the end of the journal when cut).
func (lr *lineReader) line(b *block, start, end int, cut bool) {
	lr.lineNo++
	size := lr.dropped + end - start
	lr.dropped = 0
	if !cut {
		size++ // the line break counts
		for end > start && b.data[end-1] == '\r' {
			end--
		}
	}
	switch {
	case size > MaxLine:
		b.lines = append(b.lines, rawLine{line: lr.lineNo, long: true, cut: cut})
	case end > start && b.data[start] == '{' || !isBlank(b.data[start:end]):
		b.lines = append(b.lines, rawLine{start: start, end: end, line: lr.lineNo, cut: cut})
	}
}

// decode parses and decodes the block's lines into recs.
func (b *block) decode() {
	b.dec.Reset()
	b.recs = slices.Grow(b.recs[:0], len(b.lines))[:len(b.lines)]
	for i := range b.lines {
		l, d := &b.lines[i], &b.recs[i]
		line := b.data[l.start:l.end]
		switch {
		case l.long:
			*d = Decoded{Record: Record{Bad: true, Long: true}}
		case b.decodeRecord(line, d):
		default:
			*d = Decoded{Record: Parse(line)}
			if !d.Bad {
				d.Events = b.dec.DecodeKeep(d.Frame)
			}
		}
		d.Line, d.Cut = l.line, l.cut
	}
}

// decodeRecord reads the usual line, {"recv":digits,"frame":{...}} (or
// [...]), scanning the frame once: when the decoder finds the frame to be
// one JSON value, the line is exactly such a record, as Parse would say.
// Otherwise it returns false, having kept nothing, and Parse decides.
func (b *block) decodeRecord(line []byte, d *Decoded) bool {
	const head, mid = `{"recv":`, `,"frame":`
	if !bytes.HasPrefix(line, []byte(head)) || len(line) < len(head)+len(mid)+3 || line[len(line)-1] != '}' {
		return false
	}
	// recv's digits, read as ParseTime would read them (18 digits
	// cannot overflow; longer ones go to ParseTime).
	i, ms := len(head), int64(0)
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		ms = ms*10 + int64(line[i]-'0')
		i++
	}
	digits := line[len(head):i]
	if len(digits) == 0 || len(digits) > 1 && digits[0] == '0' || !bytes.HasPrefix(line[i:], []byte(mid)) {
		return false // not a JSON number (a leading zero), or not this layout: Parse decides
	}
	if len(digits) > 18 {
		ms, _ = event.ParseTime(digits)
	}
	frame := line[i+len(mid) : len(line)-1]
	if len(frame) < 2 || (frame[0] != '{' || frame[len(frame)-1] != '}') && (frame[0] != '[' || frame[len(frame)-1] != ']') {
		return false
	}
	evs := b.dec.DecodeKeep(frame)
	if len(evs) == 1 && evs[0].Kind == event.KindMalformed && len(evs[0].Raw) == len(frame) &&
		(evs[0].Reason == event.ReasonNotJSON || evs[0].Reason == event.ReasonTooLarge) {
		b.dec.DropLast()
		return false
	}
	*d = Decoded{Record: Record{Recv: ms, Frame: frame}, Events: evs}
	return true
}

// nextRaw returns the next non-blank line without parsing it (valid until
// the next call), or long for a line over MaxLine, or io.EOF; errors carry
// the line number.
func (jr *Reader) nextRaw() (line []byte, long bool, err error) {
	for {
		line, err := jr.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				err = fmt.Errorf("line %d: %w", jr.lineNo+1, err)
			}
			return nil, false, err
		}
		jr.lineNo++
		if jr.long {
			return nil, true, nil
		}
		if !isBlank(line) {
			return line, false, nil
		}
	}
}
