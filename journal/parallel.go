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
	// Aux is what ScanDecodedPrep's prep appended for Events (nil without
	// a prep).
	Aux []uint64
	aux int // where Aux starts in the block's aux, until the block is decoded
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

// maxEmptyReads is how many reads in a row may return no data and no
// error before the scan gives up with io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100

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
	prep  func(evs []event.Event, aux []uint64) []uint64
	aux   []uint64      // prep's words for the block's records
	ready chan struct{} // one token when recs are decoded
}

// blockPool keeps the blocks of finished scans for the next one: a
// block's buffers (its lines' bytes, its decoded events, ~1 KiB each)
// grow to about 1 MiB while it is filled, and a scan holds several.
var blockPool sync.Pool

// ScanDecoded reads every record of r like Scan, and calls fn for each in
// journal order on the calling goroutine, with the frame already decoded:
// lines are read in blocks, each block read and decoded by one of
// workers-1 goroutines while the caller folds earlier ones (the caller
// reads and decodes a block too when the next one is not ready yet; with
// one worker it does everything itself). A record and its events are
// valid only during the call. A read error stops the scan after the
// records before it, as in Scan.
func ScanDecoded(r io.Reader, workers int, fn func(d *Decoded)) error {
	return ScanDecodedPrep(r, workers, nil, fn)
}

// ScanDecodedPrep is ScanDecoded calling prep, when not nil, with each
// record's events on the decoding goroutine that decoded them, as soon
// as they are: prep appends what it derives from them (what the folder
// would otherwise compute, such as state.PrepareEvents) to aux and
// returns it, and fn finds those words as the record's Aux. The blocks
// the caller reads and decodes itself (when the next one is late, and
// every block with one worker) are not prepared: their records' Aux is
// nil, and fn must fold them without.
func ScanDecodedPrep(r io.Reader, workers int, prep func(evs []event.Event, aux []uint64) []uint64, fn func(d *Decoded)) error {
	return scanDecoded(&lineReader{r: skipBOM(r), blockBytes: blockBytes, blockLines: blockLines}, workers, prep, fn)
}

func scanDecoded(lr *lineReader, workers int, prep func(evs []event.Event, aux []uint64) []uint64, fn func(d *Decoded)) error {
	workers = max(workers, 1)
	n := 2*workers + 2 // blocks in flight: each decoder busy, the folder busy, some read ahead
	if workers == 1 {
		n = 1
	}
	p := &pipe{lr: lr, free: make(chan *block, n), order: make(chan *block, n), quit: make(chan struct{})}
	blocks := make([]*block, n)
	for i := range blocks {
		b, _ := blockPool.Get().(*block)
		if b == nil {
			b = &block{ready: make(chan struct{}, 1)}
		}
		b.prep = prep
		blocks[i] = b
		p.free <- b
	}
	// The caller folds on one core and decoders take the others: the
	// folder, which sets the pace, never waits for a core behind them, and
	// each block is handed over twice (to be folded, then back), not four
	// times as with a reading goroutine apart.
	var wg sync.WaitGroup
	// The blocks go back to the pool only once no worker can touch them:
	// when fn panics (or exits the goroutine), the workers are stopped and
	// waited for first (one in a read ends it), and the panic goes on after.
	defer func() {
		p.stop()
		wg.Wait()
		for _, b := range blocks {
			select {
			case <-b.ready: // decoded, never folded (fn panicked)
			default:
			}
			b.recs, b.prep = b.recs[:0], nil
			blockPool.Put(b)
		}
	}()
	for range workers - 1 {
		wg.Go(func() {
			for {
				select {
				case b := <-p.free:
					if !p.next(b) {
						p.free <- b
						return
					}
					b.decode(true)
					b.ready <- struct{}{}
				case <-p.quit:
					return
				}
			}
		})
	}
	for {
		b, ok := p.ordered()
		if !ok {
			break
		}
		p.await(b)
		for i := range b.recs {
			fn(&b.recs[i])
		}
		p.free <- b
	}
	if p.err != nil {
		return fmt.Errorf("read journal: %w", p.err)
	}
	return nil
}

// pipe is what ScanDecoded's goroutines share: the reader, the blocks
// free to fill, and the filled ones in journal order.
type pipe struct {
	mu    sync.Mutex // guards lr, done, err and the order of sends on order
	lr    *lineReader
	done  bool  // every line is read (order is closed) or stop was called; quit is closed
	err   error // the read error (with its line), nil at the end of the journal
	free  chan *block
	order chan *block // filled blocks, in journal order; closed after the last
	quit  chan struct{}
}

// next fills b with the next lines and queues it to be folded; false when
// every line was read before (b is not queued).
func (p *pipe) next(b *block) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return false
	}
	done := p.lr.fill(b)
	if len(b.lines) > 0 {
		p.order <- b // never blocks: order holds every block
	}
	if done {
		p.done = true
		if !errors.Is(p.lr.err, io.EOF) {
			p.err = fmt.Errorf("line %d: %w", p.lr.lineNo+1, p.lr.err)
		}
		close(p.order)
		close(p.quit)
	}
	return len(b.lines) > 0
}

// stop ends the reading early (fn panicked): no block is filled after
// it, and the workers waiting for one return.
func (p *pipe) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.done = true
		close(p.quit)
	}
}

// help reads and decodes the next block on the caller's goroutine when a
// block is free; it reports whether it did.
func (p *pipe) help() bool {
	select {
	case b := <-p.free:
		if !p.next(b) {
			p.free <- b
			return false
		}
		b.decode(false) // the folder: no prep (it would do that work twice)
		b.ready <- struct{}{}
		return true
	default:
		return false
	}
}

// ordered returns the next block in journal order, false after the last;
// while none is queued, the caller reads and decodes one itself if one is
// free (with one worker, it reads every block so).
func (p *pipe) ordered() (*block, bool) {
	for {
		select {
		case b, ok := <-p.order:
			return b, ok
		default:
		}
		if !p.help() {
			b, ok := <-p.order
			return b, ok
		}
	}
}

// await returns once b is decoded; meanwhile the caller reads and
// decodes later blocks while there are free ones.
func (p *pipe) await(b *block) {
	for {
		select {
		case <-b.ready:
			return
		default:
		}
		if !p.help() {
			<-b.ready
			return
		}
	}
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

// fill reads lines into b until it holds blockBytes of them or
// blockLines lines, or the journal ends (done: every line is read).
func (lr *lineReader) fill(b *block) (done bool) {
	b.data, b.lines = append(b.data[:0], lr.carry...), b.lines[:0]
	lr.carry = lr.carry[:0]
	start, scan := 0, 0 // the current line starts at start; no line break in [start, scan)
	empty := 0          // reads in a row that returned nothing, not even an error
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
		if n == 0 && err == nil {
			if empty++; empty >= maxEmptyReads {
				lr.err = io.ErrNoProgress
			}
		} else {
			empty = 0
		}
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

// decode parses and decodes the block's lines into recs, calling prep
// (if any) on each record's events when withPrep says so (a decoder's
// goroutine: the folder's own blocks go without, their Aux nil).
func (b *block) decode(withPrep bool) {
	b.dec.Reset()
	b.aux = b.aux[:0]
	prep := b.prep
	if !withPrep {
		prep = nil
	}
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
		if prep != nil {
			d.aux = len(b.aux)
			b.aux = prep(d.Events, b.aux)
		}
	}
	if prep != nil { // (b.aux may have moved as it grew)
		for i := range b.recs {
			end := len(b.aux)
			if i+1 < len(b.recs) {
				end = b.recs[i+1].aux
			}
			b.recs[i].Aux = b.aux[b.recs[i].aux:end:end]
		}
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
