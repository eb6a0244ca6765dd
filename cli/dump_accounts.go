package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"bhtop/config"
	"bhtop/market"
	"bhtop/notify"
	"bhtop/state"
	"bhtop/stream"
	"bhtop/value"
)

// ind is the dump's indent for --indent.
func ind(indent bool) string {
	if indent {
		return "  "
	}
	return ""
}

// dumpTotal is the several-account dump's "total". Missing names the
// accounts none of whose equity is in Equity ([] when none), Why says why
// for each of them ({} when none), and Counted is how many accounts
// Equity sums: with 0 the equity is unknown, not zero.
type dumpTotal struct {
	Asset    string            `json:"asset"`
	Equity   string            `json:"equity"`
	Unpriced []string          `json:"unpriced"`
	Missing  []string          `json:"missing"`
	Counted  int               `json:"counted"`
	Why      map[string]string `json:"why"`
}

// dumpAccounts is `bhtop dump` over several accounts (DESIGN.md
// 'Accounts'): every account streams at once until ctx ends, then it
// prints {"accounts": {"NAME": <dump>}, "total": {"asset", "equity",
// "unpriced", "missing"}}. An account that never went live (a wrong key) is still
// printed, with what it has; the run then fails after printing, naming it.
func dumpAccounts(ctx context.Context, accts []config.Account, dk *desk, logger *slog.Logger, closeLog func() error, indent string, stdio IO) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Err, "bhtop dump: "+format+"\n", a...)
		return ExitFail
	}
	as, err := openAccounts(ctx, accts, upstreamOptions{simActivity: dumpSimActivity, logger: logger, metrics: dk.reg, getenv: stdio.Getenv})
	if err != nil {
		fail("%v", err)
		return upstreamExitCode(err)
	}
	defer as.Close()
	as.Start()
	as.follow(dk)
	notLive := make([]string, len(as.list))
	var wg sync.WaitGroup
	for i, a := range as.list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a.up.sess.WaitLive(ctx) != nil || a.up.sess.Status().LastSnapshot.IsZero() {
				notLive[i] = notLiveReason(a.up.sess.Status())
			}
		}()
	}
	wg.Wait()
	<-ctx.Done()
	// Read the hubs after Close: each session's writer folds what it has
	// queued and publishes a last snapshot as it stops.
	stateHubs := make([]*state.Hub, len(as.list))
	marketHubs := make([]*market.Hub, len(as.list))
	for i, a := range as.list {
		stateHubs[i], marketHubs[i] = a.up.sess.Hub(), a.up.MarketHub()
	}
	if err := as.Close(); err != nil {
		fmt.Fprintf(stdio.Err, "bhtop dump: %v\n", err)
	}
	// How each stream was when its session closed, as its state read
	// below is (an account closes while the ones before it shut down):
	// one that went live and died since has a state from before, which is
	// not current; one down at the end of --for but live again by then
	// is current, and so is one not live yet at the end of --for but
	// live by then, its snapshot taken: its state is whole.
	ends := make([]stream.Status, len(as.list))
	down := make([]string, len(as.list))
	for i, a := range as.list {
		ends[i] = a.up.EndStatus()
		if notLive[i] != "" && ends[i].State == stream.StateLive && !ends[i].LastSnapshot.IsZero() {
			notLive[i] = ""
		}
		if notLive[i] == "" {
			down[i] = downAtEnd(ends[i])
		}
	}
	mkts := make([]*market.Snapshot, len(as.list))
	states := make([]*state.Snapshot, len(as.list))
	for i := range as.list {
		states[i] = stateHubs[i].Latest()
		if marketHubs[i] != nil {
			mkts[i] = marketHubs[i].Latest()
		}
	}
	dk.close(finishWait)
	b, err := accountsJSON(as, states, mkts, notLive, ends, dk.alerts())
	if err == nil && indent != "" {
		var out bytes.Buffer
		if err = json.Indent(&out, b, "", indent); err == nil {
			b = out.Bytes()
		}
	}
	if err != nil {
		return fail("write state dump: %v", err)
	}
	if _, err := stdio.Out.Write(append(b, '\n')); err != nil {
		return fail("write state dump: %v", err)
	}
	code := ExitOK
	for i, why := range notLive {
		if why != "" {
			code = fail("account %s: the user stream never went live: %s", as.list[i].name, why)
		}
		if down[i] != "" {
			fmt.Fprintf(stdio.Err, "bhtop dump: warning: account %s: %s\n", as.list[i].name, down[i])
		}
	}
	for _, w := range dk.warnings() {
		fmt.Fprintf(stdio.Err, "bhtop dump: warning: account %s: %s\n", w.account, w.text)
	}
	if err := errors.Join(as.RecordErr(), closeLog()); err != nil {
		return fail("%v", err)
	}
	return code
}

// accountsJSON composes the several-account dump on one line: each
// account's dump (with its own alerts), then the total valued in the
// first account's asset. An account with a notLive reason never synced:
// its equity is unknown, so the total leaves it out and names it.
func accountsJSON(as *accounts, states []*state.Snapshot, mkts []*market.Snapshot, notLive []string, ends []stream.Status, alerts []notify.Record) ([]byte, error) {
	var out bytes.Buffer
	out.WriteString(`{"accounts":{`)
	parts := make([]value.Part, len(as.list))
	for i, a := range as.list {
		s := states[i]
		mine := []notify.Record{}
		for _, r := range alerts {
			if r.Account == a.name {
				mine = append(mine, r)
			}
		}
		b, err := dumpJSON(s, mkts[i], a.up.valueIn, dumpMember{"alerts", mine}, dumpMember{"stream", streamAtEnd(ends[i])})
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out.WriteByte(',')
		}
		name, _ := json.Marshal(a.name)
		out.Write(name)
		out.WriteByte(':')
		out.Write(b)
		parts[i] = value.Part{Name: a.name, State: s, Market: mkts[i], Val: value.Of(s, mkts[i], a.up.valueIn),
			Unknown: notLive[i] != ""}
	}
	in := as.list[0].up.valueIn
	t := value.Sum(in, parts)
	why := map[string]string{}
	for i, p := range parts {
		w := value.Left(p, in)
		switch {
		case notLive[i] != "": // the run is over: no snapshot is coming
			w = "never went live (no REST snapshot; stderr says why)"
		case w != "" && p.Val == nil && as.list[i].up.MarketHub() == nil:
			w += " (--no-market)"
		}
		if w != "" {
			why[p.Name] = w
		}
	}
	tb, err := marshal(dumpTotal{Asset: t.Asset, Equity: t.Equity.String(), Unpriced: t.Unpriced, Missing: t.Missing,
		Counted: len(parts) - len(t.Missing), Why: why})
	if err != nil {
		return nil, err
	}
	out.WriteString(`},"total":`)
	out.Write(tb)
	out.WriteByte('}')
	return out.Bytes(), nil
}
