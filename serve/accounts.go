package serve

import (
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/ui"
)

// allowedAccounts are the served accounts that allow (a key's
// BHTOP_ACCOUNTS list; nil: every one) names, in the served order.
func allowedAccounts(served []ui.Account, allow []string) []ui.Account {
	if allow == nil {
		return served
	}
	var out []ui.Account
	for _, a := range served {
		if slices.Contains(allow, a.Name) {
			out = append(out, a)
		}
	}
	return out
}

// sharedAccounts wraps each account's backend with Shared (viewers cannot
// multiply its requests) and drops every Trader: serve never trades.
func sharedAccounts(accts []ui.Account, every time.Duration) []ui.Account {
	out := make([]ui.Account, len(accts))
	for i, a := range accts {
		a.Backend, a.Trader = Shared(a.Backend, every, nil), nil
		out[i] = a
	}
	return out
}

// readOnlyDesk returns the NewModel used with Config.Accounts: the
// read-only dashboard over the accounts the viewer's key allows (a / A
// switch among them; the All view totals only them).
func readOnlyDesk(accts []ui.Account, theme string, fps int, more ...ui.Option) func(context.Context, Viewer) tea.Model {
	return func(ctx context.Context, v Viewer) tea.Model {
		return ui.NewDesk(allowedAccounts(accts, v.Accounts), viewerOptions(ctx, v, theme, fps, more)...)
	}
}
