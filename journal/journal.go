// Package journal writes and reads the JSON-lines journal of received
// frames that DESIGN.md specifies.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"bhtop/event"
)

// Writer appends journal records, one line per frame. It is safe for
// concurrent use. It never writes keys or secrets: only frames. The first
// write error (a full disk, a closed pipe) sticks: every later Write
// returns it without writing, and Err reports it, so that a command can
// fail at exit instead of ending with a silently cut journal.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
	buf []byte
	err error
}

// Err is the first write error, nil while every record was written.
func (jw *Writer) Err() error {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	return jw.err
}

// NewWriter returns a Writer on w stamping records with now (time.Now
// when nil).
func NewWriter(w io.Writer, now func() time.Time) *Writer {
	if now == nil {
		now = time.Now
	}
	return &Writer{w: w, now: now}
}

// Write appends {"recv": ms, "frame": frame}, or {"recv": ms, "bad":
// "text"} when frame is not valid JSON. A frame holding line breaks is
// compacted onto one line.
func (jw *Writer) Write(frame []byte) error {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	if jw.err != nil {
		return jw.err
	}
	b := append(jw.buf[:0], `{"recv":`...)
	b = strconv.AppendInt(b, jw.now().UnixMilli(), 10)
	if event.Valid(frame) {
		b = append(b, `,"frame":`...)
		if bytes.ContainsAny(frame, "\r\n") {
			var c bytes.Buffer
			if err := json.Compact(&c, frame); err != nil {
				return fmt.Errorf("journal: compact frame: %w", err)
			}
			frame = c.Bytes()
		}
		b = append(b, bytes.TrimSpace(frame)...)
	} else {
		text, _ := json.Marshal(string(frame))
		b = append(b, `,"bad":`...)
		b = append(b, text...)
	}
	b = append(b, "}\n"...)
	jw.buf = b
	if _, err := jw.w.Write(b); err != nil {
		jw.err = fmt.Errorf("journal: write record: %w", err)
		return jw.err
	}
	return nil
}

// Record is one line of a journal.
type Record struct {
	Recv  int64  // local unix ms; 0 for a bare frame
	Frame []byte // the frame (nil for a bad record); valid until the next Next
	Bad   bool   // a {"bad": ...} record or a line over MaxLine: counts as one malformed frame
	Bare  bool   // the line was a bare frame, not a record
	Long  bool   // the line was over MaxLine and was skipped (Bad is set)
	// Line is the record's line number in the journal, from 1.
	Line int
	// Cut: the journal ended in this line, without its line break (a
	// journal whose writer stopped mid-record).
	Cut bool
}

// MaxLine is the longest line read; longer lines come back as Bad records.
const MaxLine = 4 << 20

// Reader reads journal records. Blank lines are skipped.
type Reader struct {
	r      *bufio.Reader
	line   []byte
	long   bool
	cut    bool // the last line read had no line break
	lineNo int
}

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(skipBOM(r), 1<<16)} }

// bom is the UTF-8 byte order mark some editors put at a file's start.
var bom = []byte("\xef\xbb\xbf")

// bomSkipper reads r without a leading UTF-8 BOM.
type bomSkipper struct {
	r     io.Reader
	head  []byte // the first bytes read, when not a BOM
	ready bool
}

// skipBOM returns r without a leading UTF-8 BOM, so a journal saved by
// an editor that adds one does not start with a malformed line.
func skipBOM(r io.Reader) io.Reader { return &bomSkipper{r: r} }

func (b *bomSkipper) Read(p []byte) (int, error) {
	if !b.ready {
		b.ready = true
		head := make([]byte, len(bom))
		n, err := readHead(b.r, head)
		b.head = head[:n]
		if bytes.Equal(b.head, bom) {
			b.head = nil
		}
		if err != nil && len(b.head) == 0 {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = io.EOF
			}
			return 0, err
		}
	}
	if len(b.head) > 0 {
		n := copy(p, b.head)
		b.head = b.head[n:]
		return n, nil
	}
	return b.r.Read(p)
}

// readHead is io.ReadFull that gives up with io.ErrNoProgress after
// maxEmptyReads reads in a row return nothing, not even an error.
func readHead(r io.Reader, p []byte) (n int, err error) {
	for empty := 0; n < len(p) && err == nil; {
		var k int
		k, err = r.Read(p[n:])
		n += k
		if k > 0 || err != nil {
			empty = 0
		} else if empty++; empty >= maxEmptyReads {
			err = io.ErrNoProgress
		}
	}
	if n == len(p) {
		err = nil
	} else if n > 0 && errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// Next returns the next non-blank line as a Record, or io.EOF.
func (jr *Reader) Next() (Record, error) {
	line, long, err := jr.nextRaw()
	if err != nil {
		return Record{}, err
	}
	if long {
		return Record{Bad: true, Long: true, Line: jr.lineNo, Cut: jr.cut}, nil
	}
	rec := Parse(line)
	rec.Line, rec.Cut = jr.lineNo, jr.cut
	return rec, nil
}

// isBlank says whether line holds only white space.
func isBlank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// readLine reads one line without its line break; a line over MaxLine is
// consumed and flagged long.
func (jr *Reader) readLine() ([]byte, error) {
	jr.line, jr.long = jr.line[:0], false
	for {
		chunk, err := jr.r.ReadSlice('\n')
		if len(jr.line)+len(chunk) > MaxLine {
			jr.long = true
		} else {
			jr.line = append(jr.line, chunk...)
		}
		switch {
		case err == nil:
			jr.cut = false
			return bytes.TrimRight(jr.line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && (len(jr.line) > 0 || jr.long):
			jr.cut = true
			return jr.line, nil
		default:
			return nil, err
		}
	}
}

// Parse classifies one line: a journal record is an object with "recv"
// and "frame" (or "bad") and no "e"; anything else is a bare frame.
func Parse(line []byte) Record {
	var recv, frame []byte
	var hasRecv, hasFrame, hasBad, hasE bool
	ok := event.Fields(line, func(k, v []byte) {
		switch string(k) {
		case "recv":
			recv, hasRecv = v, true
		case "frame":
			frame, hasFrame = v, true
		case "bad":
			hasBad = true
		case "e":
			hasE = true
		}
	})
	if !ok || !hasRecv || hasE || (!hasFrame && !hasBad) {
		return Record{Frame: line, Bare: true}
	}
	ms, _ := event.ParseTime(bytes.Trim(recv, `"`))
	if hasFrame {
		return Record{Recv: ms, Frame: frame}
	}
	return Record{Recv: ms, Bad: true}
}

// Scan reads every record of r and calls fn for each frame to fold (bad
// records as a nil frame with bad set).
func Scan(r io.Reader, fn func(rec Record)) error {
	jr := NewReader(r)
	for {
		rec, err := jr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read journal: %w", err)
		}
		fn(rec)
	}
}
