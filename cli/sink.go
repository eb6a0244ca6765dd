package cli

import (
	"fmt"
	"os"
	"sync"
)

// sink is an output file a command appends to (a --record journal, a
// --log, a --log-requests request log) whose loss must not pass in
// silence: the first write error sticks, later writes are refused with
// it, onFail (if set) hears of it at once, and Err/Close report it so the
// command can exit non-zero and say which file and why.
type sink struct {
	flag, path string
	f          *os.File
	onFail     func(error)

	mu     sync.Mutex
	err    error
	closed bool
}

// openSink opens path for appending (created with mode 0600), for the
// named flag.
func openSink(flag, path string, onFail func(error)) (*sink, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s: open: %w", flag, err)
	}
	return &sink{flag: flag, path: path, f: f, onFail: onFail}, nil
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return 0, err
	}
	n, err := s.f.Write(p)
	if err == nil {
		s.mu.Unlock()
		return n, nil
	}
	s.err = fmt.Errorf("%s: %w (nothing more was written to it)", s.flag, err)
	err = s.err
	s.mu.Unlock()
	if s.onFail != nil {
		s.onFail(err)
	}
	return n, err
}

// Err is the first write (or close) error; nil for a nil sink.
func (s *sink) Err() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close closes the file (once) and returns Err; nil for a nil sink.
func (s *sink) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		if err := s.f.Close(); err != nil && s.err == nil {
			s.err = fmt.Errorf("%s: %w", s.flag, err)
		}
	}
	return s.err
}
