package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// TestPrometheusScrapes starts a real Prometheus server (Debian package
// prometheus; .ci/run installs it) with a temporary config and storage,
// lets it scrape a registry following a live simulator session on
// 127.0.0.1, and reads bhtop_stream_up back through its HTTP query API.
func TestPrometheusScrapes(t *testing.T) {
	l := newLive(t, "desk", 5)
	prom := startPrometheus(t, l.reg)
	prom.waitFor(t, `bhtop_stream_up{job="bhtop"}`, "desk=1")
	if got, err := prom.query(`sum(bhtop_events_total{account="desk"}) > 0`); err != nil {
		t.Errorf("sum(bhtop_events_total) through Prometheus: %v", err)
	} else {
		t.Logf("Prometheus: sum(bhtop_events_total) %s", got)
	}
}

// promServer is a real Prometheus server scraping one registry every
// second, for one test.
type promServer struct {
	web  string // its HTTP address
	logs *strings.Builder
}

// startPrometheus serves reg on loopback and starts a Prometheus server
// scraping it, both stopped when the test ends; the test is skipped when
// the prometheus binary is not installed.
func startPrometheus(t *testing.T, reg *Registry) *promServer {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("the prometheus binary is not installed (apt-get install prometheus): cannot check a real scrape")
	}
	ctx, cancel := context.WithCancel(context.Background())
	target := serveOn(ctx, t, reg)
	dir := t.TempDir()
	cfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: bhtop
    static_configs:
      - targets: ["%s"]
`, target)
	cfgFile := filepath.Join(dir, "prometheus.yml")
	testkit.WriteFile(t, cfgFile, cfg)
	p := &promServer{web: testkit.FreeAddr(t), logs: &strings.Builder{}}
	cmd := exec.CommandContext(ctx, bin,
		"--config.file="+cfgFile,
		"--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+p.web,
		"--log.level=warn",
	)
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start prometheus: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	return p
}

// query evaluates the instant query q and returns its results, each as
// "ACCOUNT=VALUE", one per series, comma-separated; an error when there
// is none.
func (p *promServer) query(q string) (string, error) {
	resp, err := http.Get("http://" + p.web + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		Status string `json:"status"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	if out.Status != "success" || len(out.Data.Result) == 0 {
		return "", fmt.Errorf("status %s, %d results", out.Status, len(out.Data.Result))
	}
	var got []string
	for _, r := range out.Data.Result {
		got = append(got, fmt.Sprintf("%s=%v", r.Metric["account"], r.Value[1]))
	}
	return strings.Join(got, ","), nil
}

// waitFor waits up to a minute for q to answer want.
func (p *promServer) waitFor(t *testing.T, q, want string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		got, err := p.query(q)
		if err == nil && got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus never answered %s = %s (last: %q, %v); its log:\n%s", q, want, got, err, p.logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}
