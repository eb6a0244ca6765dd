package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"bhtop/signer"
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
		q := "timestamp=" + strconv.FormatInt(time.Now().UnixMilli(), 10)
		q += "&signature=" + signer.Sign(signer.NewSecret(a.SecretKey), q)
		req, _ := http.NewRequest("GET", conn.BaseURL+"/openapi/v1/account?"+q, nil)
		req.Header.Set("X-BH-APIKEY", a.APIKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), `"balances"`) {
			t.Errorf("%s: GET account = %d %s", a.Name, res.StatusCode, body)
		}
	}
	cancel()
	<-done
}
