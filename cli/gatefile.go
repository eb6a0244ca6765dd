package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"bhtop/rest"
)

// gateFile is where the 429/418 gates of baseURL's host are remembered
// across processes: $XDG_STATE_HOME/bhtop/gates/<scheme_host_port>.json
// (default ~/.local/state). "" when no directory is known.
func gateFile(getenv func(string) string, baseURL string) string {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	name := strings.NewReplacer("://", "_", ":", "_", "/", "_", "[", "", "]", "").Replace(hostKey(baseURL))
	return filepath.Join(dir, "bhtop", "gates", name+".json")
}

// savedGates is the file's content: the gates' ends, Unix milliseconds.
type savedGates struct {
	RetryAfter  int64 `json:"retryAfter"`
	BannedUntil int64 `json:"bannedUntil"`
}

// loadGates holds limits to the gates saved for baseURL's host. A missing
// or corrupt file is ignored.
func loadGates(getenv func(string) string, baseURL string, limits *rest.HostLimits) {
	path := gateFile(getenv, baseURL)
	if path == "" {
		return
	}
	b, err := os.ReadFile(path)
	var g savedGates
	if err != nil || json.Unmarshal(b, &g) != nil {
		return
	}
	var r, ban time.Time
	if g.RetryAfter > 0 {
		r = time.UnixMilli(g.RetryAfter)
	}
	if g.BannedUntil > 0 {
		ban = time.UnixMilli(g.BannedUntil)
	}
	limits.Hold(r, ban)
}

// saveGates writes the client's gates for its host when one is still in
// force at now (0600, atomically). Failures are ignored: remembering the
// gate never fails a command.
func saveGates(getenv func(string) string, c *rest.Client, now time.Time) {
	r, ban := c.RetryAfter(), c.BannedUntil()
	path := gateFile(getenv, c.BaseURL())
	if path == "" || (!r.After(now) && !ban.After(now)) {
		return
	}
	var g savedGates
	if r.After(now) {
		g.RetryAfter = r.UnixMilli()
	}
	if ban.After(now) {
		g.BannedUntil = ban.UnixMilli()
	}
	b, _ := json.Marshal(g)
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gates-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		_ = os.Remove(tmp.Name())
	}
}
