package serve

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/ui"
)

// readOnlyDashboard returns the NewModel used when Config.NewModel is nil:
// the dashboard over the shared upstream with a nil Trader, which is
// read-only mode (n, x and X do not exist). serve has no Trader to give.
func readOnlyDashboard(up Upstream, theme string, fps int, more ...ui.Option) func(context.Context, Viewer) tea.Model {
	frame := time.Second / time.Duration(fps)
	return func(ctx context.Context, v Viewer) tea.Model {
		opts := append([]ui.Option{
			ui.WithTheme(theme),
			ui.WithNoColor(v.NoColor()),
			ui.WithContext(ctx),
			ui.WithFrameInterval(frame),
		}, more...)
		return ui.New(up, nil, opts...)
	}
}
