package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"bhtop/alert"
	"bhtop/internal/lockedbuf"
)

// Defaults of a Command.
const (
	DefaultCommandTimeout = 10 * time.Second
	DefaultCommandMax     = 4
)

// Command runs the --alert-cmd command line (through /bin/sh -c) once per
// firing with the alert as JSON on stdin. At most max run at once; a
// firing that finds no free slot is dropped and logged, so a hanging
// command cannot pile up processes. Each run is killed after the timeout.
// The child's environment lacks bhtop's credentials.
type Command struct {
	line    string
	timeout time.Duration
	slots   chan struct{}
	log     *slog.Logger
	env     []string
	wg      sync.WaitGroup
}

// NewCommand returns a runner of line; zero timeout and max take the
// defaults.
func NewCommand(line string, timeout time.Duration, max int, logger *slog.Logger) *Command {
	if timeout <= 0 {
		timeout = DefaultCommandTimeout
	}
	if max <= 0 {
		max = DefaultCommandMax
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Command{line: line, timeout: timeout, slots: make(chan struct{}, max), log: logger, env: childEnv(os.Environ())}
}

// childEnv is env without bhtop's credentials.
func childEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "BHTOP_SECRET_KEY=") || strings.HasPrefix(kv, "BHTOP_API_KEY=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Payload is the JSON a command reads on stdin.
type Payload struct {
	Time    int64  `json:"time"` // unix ms
	Rule    string `json:"rule"`
	Kind    string `json:"kind"`
	Account string `json:"account"`
	Message string `json:"message"`
}

// Run starts the command for f in the background and returns at once.
func (c *Command) Run(f alert.Firing) {
	select {
	case c.slots <- struct{}{}:
	default:
		c.log.Warn("alert command skipped: too many still running", "rule", f.Rule, "running", cap(c.slots))
		return
	}
	c.wg.Add(1)
	go func() {
		defer func() { <-c.slots; c.wg.Done() }()
		c.run(f)
	}()
}

func (c *Command) run(f alert.Firing) {
	in, _ := json.Marshal(Payload{Time: f.Time.UnixMilli(), Rule: f.Rule, Kind: string(f.Kind), Account: f.Account, Message: Clean(f.Message)})
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", c.line)
	cmd.Env = c.env
	cmd.Stdin = bytes.NewReader(append(in, '\n'))
	out := &lockedbuf.Buffer{Max: 2048} // the first 2 kB, for the log
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = time.Second // pipes held by grandchildren do not keep us waiting
	killGroup(cmd)
	start := time.Now()
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		c.log.Warn("alert command killed after the timeout", "rule", f.Rule, "timeout", c.timeout.String())
	case err != nil:
		c.log.Warn("alert command failed", "rule", f.Rule, "err", err, "output", Clean(out.String()))
	default:
		c.log.Debug("alert command ran", "rule", f.Rule, "ms", time.Since(start).Milliseconds())
	}
}

// Wait waits for running commands, at most d.
func (c *Command) Wait(d time.Duration) {
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}
