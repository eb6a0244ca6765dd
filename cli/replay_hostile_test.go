package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/journal"
	"bhtop/state"
	"bhtop/stream"
)

// TestReplayHostileJournals: replay --dump survives a truncated, binary,
// empty or huge-line journal: it folds what it can, prints the state
// (malformed lines counted), exits 0 and says on stderr where the damage
// is, in one line.
func TestReplayHostileJournals(t *testing.T) {
	code, good, errOut := runCmd([]string{"gen", "--events", "30", "--in-order"}, "")
	if code != ExitOK {
		t.Fatalf("gen: exit %d %s", code, errOut)
	}
	lines := strings.SplitAfter(strings.TrimRight(string(good), "\n"), "\n")
	n := len(lines)
	cutLast := strings.Join(lines[:n-1], "") + lines[n-1][:len(lines[n-1])/2]
	binary := good + "\x00\x01\x02\xff\xfe garbage \x89PNG\r\n" + lines[0]
	huge := lines[0] + `{"e":"` + strings.Repeat("x", journal.MaxLine+10) + "\"}\n" + strings.Join(lines[1:], "")
	tests := []struct {
		name, content string
		want          []string // in stderr
		malformed     int
	}{
		{"truncated", cutLast, []string{"line " + itoa(n), "ends in the middle"}, 1},
		{"binary", binary, []string{"line " + itoa(n+1), "not a frame"}, 1},
		{"empty", "", []string{"empty"}, 0},
		{"only blank lines", "\n\n\r\n", []string{"empty"}, 0},
		{"huge line", huge, []string{"line 2", "longer than 4 MiB"}, 1},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".jsonl")
			testkit.WriteFile(t, path, tt.content)
			code, out, errOut := runCmd([]string{"replay", path, "--dump"}, "")
			if code != ExitOK {
				t.Fatalf("exit %d, want 0; stderr %q", code, errOut)
			}
			var dump struct {
				Stats struct{ Malformed int } `json:"stats"`
			}
			if err := json.Unmarshal([]byte(out), &dump); err != nil {
				t.Fatalf("stdout is not the state JSON: %v", err)
			}
			if dump.Stats.Malformed != tt.malformed {
				t.Errorf("malformed = %d, want %d", dump.Stats.Malformed, tt.malformed)
			}
			line := strings.TrimRight(errOut, "\n")
			if strings.Contains(line, "\n") {
				t.Errorf("stderr = %q, want one line", errOut)
			}
			for _, w := range append(tt.want, path) {
				if !strings.Contains(line, w) {
					t.Errorf("stderr = %q, want it to say %q", line, w)
				}
			}
		})
	}
}

// TestReplayPaceNamesBadLines: played into the dashboard, each unreadable
// line is an event naming its line number, once (no summary repeats it).
func TestReplayPaceNamesBadLines(t *testing.T) {
	notes := &stream.NoteLog{}
	in := strings.NewReader("{\"ping\":1}\nnot json\n{\"ping\":2}\n")
	if err := pace(t.Context(), in, state.NewStore(), &state.Hub{}, notes, &badLines{name: "j"}, 1e6, time.Now, sleepCtx); err != nil {
		t.Fatal(err)
	}
	all, _ := notes.Since(0)
	found := 0
	for _, n := range all {
		if strings.Contains(n.Text, "line 2") {
			found++
			if !strings.Contains(n.Text, "line 2: not a frame") {
				t.Errorf("event %q names line 2 without saying why", n.Text)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d events name line 2, want 1; events: %+v", found, all)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
