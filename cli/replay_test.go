package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"bhtop/state"
	"bhtop/stream"
)

func runCmd(args []string, stdin string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Run(args, IO{In: strings.NewReader(stdin), Out: &out, Err: &errb, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

// TestReplayDumpSpec: `bhtop replay FILE --dump` of the journal made from
// SPEC.md's payloads prints the expected state (flags before or after).
func TestReplayDumpSpec(t *testing.T) {
	want, err := os.ReadFile("../state/testdata/spec.dump.json")
	if err != nil {
		t.Fatal(err)
	}
	var w any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"replay", "../state/testdata/spec.jsonl", "--dump"},
		{"replay", "--dump", "../state/testdata/spec.jsonl"},
	} {
		code, out, errs := runCmd(args, "")
		var g map[string]any
		if err := json.Unmarshal([]byte(out), &g); err != nil || code != ExitOK {
			t.Fatalf("%v: exit %d, %v, stderr %s", args, code, err, errs)
		}
		// A journal has no market data: market {}, valuation null, and
		// each position's markPrice and unrealizedPnl null.
		if m, ok := g["market"].(map[string]any); !ok || len(m) != 0 {
			t.Errorf("%v: market = %v, want {}", args, g["market"])
		}
		if v, ok := g["valuation"]; !ok || v != nil {
			t.Errorf("%v: valuation = %v (present %v), want null", args, v, ok)
		}
		delete(g, "market")
		delete(g, "valuation")
		for _, p := range g["positions"].([]any) {
			pos := p.(map[string]any)
			for _, k := range []string{"markPrice", "unrealizedPnl"} {
				if v, ok := pos[k]; !ok || v != nil {
					t.Errorf("%v: position %s = %v (present %v), want null", args, k, v, ok)
				}
				delete(pos, k)
			}
		}
		if !reflect.DeepEqual(any(g), w) {
			t.Errorf("%v printed\n%s\nwant\n%s", args, out, want)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"replay"}, ExitUsage, "usage"},
		{[]string{"replay", "a", "b", "--dump"}, ExitUsage, "usage"},
		{[]string{"replay", "--speed", "0", "x"}, ExitUsage, "--speed 0: want a number from 0.001"},
		{[]string{"replay", "/nonexistent/j.jsonl", "--dump"}, ExitUsage, "open journal"},
		{[]string{"replay", "/", "--dump"}, ExitUsage, "is a directory"},
		{[]string{"replay", "--bogus"}, ExitUsage, "flag provided but not defined"},
	}
	for _, c := range cases {
		code, _, errs := runCmd(c.args, "")
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v = exit %d %q, want %d containing %q", c.args, code, errs, c.code, c.msg)
		}
	}
}

// TestGenThenReplay: gen's journal folds through replay --dump from stdin.
func TestGenThenReplay(t *testing.T) {
	code, journal, errs := runCmd([]string{"gen", "--events", "3000", "--seed", "5"}, "")
	if code != ExitOK {
		t.Fatalf("gen = %d %s", code, errs)
	}
	code2, again, _ := runCmd([]string{"gen", "--seed", "5", "--events", "3000"}, "")
	if code2 != ExitOK || again != journal {
		t.Error("gen is not deterministic")
	}
	code, out, errs := runCmd([]string{"replay", "-", "--dump"}, journal)
	var dump struct {
		Orders []state.Order
		Stats  state.Stats
	}
	if err := json.Unmarshal([]byte(out), &dump); err != nil || code != ExitOK {
		t.Fatalf("replay = %d %v %s", code, err, errs)
	}
	st := dump.Stats
	if st.Events != 3000 || st.Applied+st.Stale != st.Events || st.Malformed != 0 || st.Stale == 0 || len(dump.Orders) == 0 {
		t.Errorf("stats = %+v orders %d", st, len(dump.Orders))
	}
	if code, _, _ := runCmd([]string{"gen", "extra"}, ""); code != ExitUsage {
		t.Errorf("gen extra = %d, want %d", code, ExitUsage)
	}
}

// TestPace: frames are applied at recv pace divided by speed, with a fake
// clock; snapshots are published and the last one holds everything.
func TestPace(t *testing.T) {
	in := `{"recv":1000,"frame":{"e":"outboundAccountInfo","E":1,"T":true,"W":true,"D":true,"B":[]}}
{"recv":3000,"frame":{"e":"outboundContractPositionInfo","A":"1","s":"X","S":"LONG","p":"1","P":"1","a":"1","f":"1","m":"1","r":"1"}}
{"recv":3000,"bad":"x"}
{"e":"unknownThing"}
`
	clock := time.Unix(0, 0)
	var slept []time.Duration
	sleep := func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		clock = clock.Add(d)
		return nil
	}
	hub := &state.Hub{}
	store := state.NewStore()
	err := pace(context.Background(), strings.NewReader(in), store, hub, &stream.NoteLog{}, &badLines{}, 4, func() time.Time { return clock }, sleep)
	if err != nil {
		t.Fatal(err)
	}
	if len(slept) != 1 || slept[0] != 500*time.Millisecond {
		t.Errorf("slept %v, want [500ms] (2 s of journal at 4x)", slept)
	}
	snap := hub.Latest()
	if snap.Account == nil || len(snap.Positions) != 1 || snap.Stats.Malformed != 1 || snap.Stats.UnknownType != 1 {
		t.Errorf("last snapshot = %+v", snap)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := pace(ctx, strings.NewReader(in), state.NewStore(), hub, &stream.NoteLog{}, &badLines{}, 1, time.Now, sleepCtx); err == nil {
		t.Error("pace ignored a canceled context")
	}
}
