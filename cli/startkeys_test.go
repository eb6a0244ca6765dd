package cli

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/sim"
)

// TestDashboardKeysBeforeFirstFrame: keys typed while the dashboard has
// drawn nothing yet (its start wait: the account's open orders are still
// on their way) act on the first frame it draws: "2X" reviews the 3 open
// orders instead of finding none.
func TestDashboardKeysBeforeFirstFrame(t *testing.T) {
	// A loaded machine (CI under -race) may take longer than the 200 ms
	// to go live; the keys must still meet the first frame, not a
	// "connecting" one.
	wait := dashboardStartWait
	dashboardStartWait = 10 * time.Second
	t.Cleanup(func() { dashboardStartWait = wait })
	s := keyedSim(t, sim.Options{}).Server
	for _, p := range []string{"0.01", "0.011", "0.012"} {
		args := []string{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", "1", "--price", p}
		if code, _, errOut := runCLI(orderEnv(t, s, nil), args...); code != ExitOK {
			t.Fatalf("order new: exit %d: %s", code, errOut)
		}
	}
	// The spot open orders answer 60 ms late: well within the start wait,
	// long after the keys.
	slow := testkit.Front(t, s.URL(), func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path == "/openapi/v1/openOrders" {
			time.Sleep(60 * time.Millisecond)
		}
		next.ServeHTTP(w, r)
	})
	env := orderEnv(t, s, map[string]string{"BHTOP_BASE_URL": slow})
	code, screen, errOut := driveDashboard(t, nil, env, 120, 40,
		screenStep{nil, "2X"},
		screenStep{[]string{"CANCEL 3 OPEN ORDERS?"}, "nq"})
	if code != ExitOK {
		t.Fatalf("dashboard exit %d; stderr: %s", code, errOut)
	}
	if strings.Contains(screen, "no open orders shown to cancel") {
		t.Errorf("X typed before the first frame found no orders")
	}
}

// TestDashboardDrawsWhileServiceHangs: a service that answers nothing
// (every request waits for the REST timeout) does not keep the dashboard
// from drawing: it says it is connecting at once and quits on q at once.
// It measured the server's clock before opening the terminal, so the
// screen stayed blank and q unread for the 10 s request timeout.
func TestDashboardDrawsWhileServiceHangs(t *testing.T) {
	s := keyedSim(t, sim.Options{}).Server
	hang := testkit.Front(t, s.URL(), func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		<-r.Context().Done() // never answered
	})
	env := orderEnv(t, s, map[string]string{"BHTOP_BASE_URL": hang, "BHTOP_WS_URL": "ws" + strings.TrimPrefix(hang, "http")})
	start := time.Now()
	code, _, errOut := driveDashboard(t, nil, env, 100, 30, screenStep{[]string{"connecting"}, "q"})
	if code != ExitOK {
		t.Fatalf("dashboard exit %d; stderr: %s", code, errOut)
	}
	// The request timeout is 10 s; drawing and quitting take well under
	// a second.
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("drawing 'connecting' and quitting took %v", d)
	}
}
