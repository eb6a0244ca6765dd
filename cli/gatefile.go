package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"bhtop/rest"
)

// gatePath is where the 429/418 gates of baseURL's host are remembered
// across processes: $XDG_STATE_HOME/bhtop/gates/<scheme_host_port>.json
// (default ~/.local/state). "" when no directory is known or baseURL
// names no host.
func gatePath(getenv func(string) string, baseURL string) string {
	key := hostKey(baseURL)
	if key == "" || !strings.Contains(key, "://") {
		return ""
	}
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	name := strings.NewReplacer("://", "_", ":", "_", "/", "_", "[", "", "]", "").Replace(key)
	return filepath.Join(dir, "bhtop", "gates", name+".json")
}

// savedGates is the file's content: the gates' ends, Unix milliseconds
// (0: none). Nothing else is ever written to it.
type savedGates struct {
	RetryAfter  int64 `json:"retryAfter"`
	BannedUntil int64 `json:"bannedUntil"`
}

// gateFile is a rest.GateStore in one file, shared by every bhtop
// process (order, dump, dashboard, serve) talking to the host. Load runs
// before each request: it costs one stat, and reads the file only when
// its size or modification time changed. Save runs when a 429 or 418 is
// answered: it writes the later of its gates and the file's, atomically
// (a temporary file renamed over it), 0600. A missing, unreadable or
// corrupt file holds nothing; failing to write it never fails a command.
// Turn (gatelock_unix.go) gives the processes' requests to the host one
// at a time.
type gateFile struct {
	path string
	now  func() time.Time // when a gate has ended; nil: time.Now

	mu   sync.Mutex
	seen fileStamp // of the content last read or written; zero: none known
	end  int64     // the latest gate end of that content, Unix ms (0: none)

	lockOnce sync.Once // opens the lock file (Turn, Unix)
	lockFile *os.File
	lock     int // lockFile's descriptor; -1: none
}

// fileStamp tells whether a file changed since it was read.
type fileStamp struct {
	mod  time.Time
	size int64
}

func stampOf(fi os.FileInfo) fileStamp { return fileStamp{fi.ModTime(), fi.Size()} }

// persistGates makes limits keep their gates in baseURL's gate file (and
// holds them to the gates it has now), when a state directory is known.
func persistGates(getenv func(string) string, baseURL string, limits *rest.HostLimits) {
	if path := gatePath(getenv, baseURL); path != "" {
		limits.Persist(&gateFile{path: path})
	}
}

// Load returns the stored gates when the file changed since the last
// Load or Save, else zero times.
func (f *gateFile) Load() (rateUntil, banUntil time.Time) {
	fi, err := os.Stat(f.path)
	if err != nil {
		return time.Time{}, time.Time{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if stampOf(fi) == f.seen {
		return time.Time{}, time.Time{}
	}
	f.seen = stampOf(fi) // a corrupt file is not read again until it changes
	g, ok := f.read()
	f.end = max(g.RetryAfter, g.BannedUntil) // a corrupt file: 0, holds nothing
	if !ok {
		return time.Time{}, time.Time{}
	}
	return g.times()
}

// dropEnded removes the gate file once its gates have ended: called at
// the end of each of this process's turns (gatelock_unix.go), while it
// holds the host's lock, so that no other process stores a gate in the
// file meanwhile (Save runs within a turn). It removes the file only as
// this process last read or wrote it (same size and modification time):
// an ended gate holds nothing, and each host answered a 429 or 418 left
// its file for good. Nothing known (no file, or removed): no work.
func (f *gateFile) dropEnded() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seen == (fileStamp{}) || f.end >= f.clock().UnixMilli() {
		return
	}
	fi, err := os.Stat(f.path)
	if err == nil && stampOf(fi) == f.seen {
		_ = os.Remove(f.path)
	}
	f.seen, f.end = fileStamp{}, 0 // known gone, or written anew (read at the next Load)
}

// clock is f.now, or time.Now.
func (f *gateFile) clock() time.Time {
	if f.now == nil {
		return time.Now()
	}
	return f.now()
}

// read parses the file.
func (f *gateFile) read() (savedGates, bool) {
	var g savedGates
	b, err := os.ReadFile(f.path)
	if err != nil || json.Unmarshal(b, &g) != nil {
		return savedGates{}, false
	}
	return g, true
}

func (g savedGates) times() (rateUntil, banUntil time.Time) {
	if g.RetryAfter > 0 {
		rateUntil = time.UnixMilli(g.RetryAfter)
	}
	if g.BannedUntil > 0 {
		banUntil = time.UnixMilli(g.BannedUntil)
	}
	return rateUntil, banUntil
}

// Save stores the later of each gate and the file's.
func (f *gateFile) Save(rateUntil, banUntil time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, _ := f.read()
	if ms := rateUntil.UnixMilli(); !rateUntil.IsZero() && ms > g.RetryAfter {
		g.RetryAfter = ms
	}
	if ms := banUntil.UnixMilli(); !banUntil.IsZero() && ms > g.BannedUntil {
		g.BannedUntil = ms
	}
	b, _ := json.Marshal(g)
	dir := filepath.Dir(f.path)
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".gates-*") // 0600
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), f.path) != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	if fi, err := os.Stat(f.path); err == nil {
		f.seen, f.end = stampOf(fi), max(g.RetryAfter, g.BannedUntil) // what this process holds already
	}
}
