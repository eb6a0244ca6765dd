package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"bhtop/rest"
	"bhtop/signer"
)

// TestErrorsHoldNoSignature: a request that cannot even be built (a base
// URL the HTTP client cannot parse) fails with an error naming the URL,
// but never its query: that holds the signature.
func TestErrorsHoldNoSignature(t *testing.T) {
	c := rest.New("http://bad host", rest.WithAPIKey("k"), rest.WithSecret(signer.NewSecret("s")))
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
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example"+r.URL.RequestURI(), http.StatusFound)
	}))
	defer srv.Close()
	c := rest.New(srv.URL, rest.WithAPIKey("k"), rest.WithSecret(signer.NewSecret("s")))
	_, err := c.Account(context.Background())
	if err == nil || strings.Contains(err.Error(), "signature") || !strings.Contains(err.Error(), "https://elsewhere.example/openapi/v1/account") {
		t.Errorf("Account on a redirecting server: error = %v, want the target without its signed query", err)
	}
}
