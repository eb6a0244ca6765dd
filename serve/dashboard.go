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
	return func(ctx context.Context, v Viewer) tea.Model {
		return ui.New(up, nil, viewerOptions(ctx, v, theme, fps, more)...)
	}
}

// viewerOptions are the dashboard options of one viewer's session: the
// theme, the client's NO_COLOR, the session's context, the frame rate and
// its terminal for the bell (written at once, so that a bell just before
// q still rings), then more.
func viewerOptions(ctx context.Context, v Viewer, theme string, fps int, more []ui.Option) []ui.Option {
	opts := []ui.Option{
		ui.WithTheme(theme),
		ui.WithNoColor(v.NoColor()),
		ui.WithContext(ctx),
		ui.WithFrameInterval(time.Second / time.Duration(fps)),
	}
	if v.Terminal != nil {
		opts = append(opts, ui.WithTerminalOutput(v.Terminal))
	}
	return append(opts, more...)
}
