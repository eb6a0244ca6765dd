package rest_test

// A base URL that is wrong (not the service, redirecting, unparsable):
// the errors say to check it, and never quote the signed query.

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"bhtop/rest"
)

// TestWrongBaseURLSaysSo: a base URL that is some other web server (404
// on every path) or one that redirects (http to https, say) is the likely
// cause of such answers; the error says to check the base URL.
func TestWrongBaseURLSaysSo(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    []string
	}{
		{"not found", http.NotFound, []string{"HTTP 404", "base URL"}},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://elsewhere.example"+r.URL.Path, http.StatusMovedPermanently)
		}, []string{"HTTP 301", "redirect", "https://elsewhere.example", "base URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := serverClient(t, tt.handler).SyncTime(context.Background())
			if err == nil {
				t.Fatal("SyncTime = nil error, want one")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("SyncTime error = %q, want it to say %q", err, w)
				}
			}
		})
	}
}

// TestErrorsHoldNoSignature: a request that cannot even be built (a base
// URL the HTTP client cannot parse) fails with an error naming the URL,
// but never its query: that holds the signature.
func TestErrorsHoldNoSignature(t *testing.T) {
	c := rest.New("http://bad host", keyed()...)
	_, err := c.Account(context.Background())
	if err == nil {
		t.Fatal("Account on an unparsable base URL = nil error, want one")
	}
	if strings.Contains(err.Error(), "signature") || strings.Contains(err.Error(), "timestamp=") {
		t.Errorf("Account error = %q, holds the signed query", err)
	}
}

// TestRedirectErrorHoldsNoSignature: a redirect that keeps the query (as
// most do) quotes the signed query in its Location and body; the error
// keeps neither.
func TestRedirectErrorHoldsNoSignature(t *testing.T) {
	c := serverClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example"+r.URL.RequestURI(), http.StatusFound)
	}), keyed()...)
	_, err := c.Account(context.Background())
	if err == nil || strings.Contains(err.Error(), "signature") || !strings.Contains(err.Error(), "https://elsewhere.example/openapi/v1/account") {
		t.Errorf("Account on a redirecting server: error = %v, want the target without its signed query", err)
	}
}
