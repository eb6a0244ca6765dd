package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// bhtop sim --accounts 3 lists three accounts with their own key pairs on
// its first line, keeping the first account's keys where they were.
func TestSimCommandAccounts(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runSimContext(ctx, []string{"--accounts", "3", "--activity", "0"}, IO{Out: pw, Err: io.Discard})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var conn struct {
		BaseURL, APIKey, SecretKey string
		Accounts                   []struct{ Name, APIKey, SecretKey string }
	}
	if err := json.Unmarshal([]byte(line), &conn); err != nil {
		t.Fatalf("first line %q: %v", line, err)
	}
	if len(conn.Accounts) != 3 || conn.Accounts[0].APIKey != conn.APIKey || conn.Accounts[0].SecretKey != conn.SecretKey {
		t.Fatalf("accounts = %+v", conn.Accounts)
	}
	seen := map[string]bool{}
	for _, a := range conn.Accounts {
		if a.Name == "" || seen[a.APIKey] {
			t.Errorf("account %+v: empty name or repeated key", a)
		}
		seen[a.APIKey] = true
		if status, body := getAccount(t, conn.BaseURL, a.APIKey, a.SecretKey, 0); status != 200 || !strings.Contains(body, `"balances"`) {
			t.Errorf("%s: GET account = %d %s", a.Name, status, body)
		}
	}
	cancel()
	testkit.Recv(t, done, 10*time.Second, "the simulator did not stop once cancelled")
}
