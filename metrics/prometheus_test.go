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
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("the prometheus binary is not installed (apt-get install prometheus): cannot check a real scrape")
	}
	l := newLive(t, "desk", 5)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	target := serveOn(ctx, t, l.reg)

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
	web := testkit.FreeAddr(t)
	cmd := exec.CommandContext(ctx, bin,
		"--config.file="+cfgFile,
		"--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+web,
		"--log.level=warn",
	)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start prometheus: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})

	query := func(q string) (string, error) {
		resp, err := http.Get("http://" + web + "/api/v1/query?query=" + url.QueryEscape(q))
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
		r := out.Data.Result[0]
		return fmt.Sprintf("%s=%v", r.Metric["account"], r.Value[1]), nil
	}
	deadline := time.Now().Add(60 * time.Second)
	var got string
	for {
		got, err = query(`bhtop_stream_up{job="bhtop"}`)
		if err == nil && got == "desk=1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus never answered bhtop_stream_up{account=desk} = 1 (last: %q, %v); its log:\n%s", got, err, logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got, err := query(`sum(bhtop_events_total{account="desk"}) > 0`); err != nil {
		t.Errorf("sum(bhtop_events_total) through Prometheus: %v", err)
	} else {
		t.Logf("Prometheus: sum(bhtop_events_total) %s", got)
	}
}
