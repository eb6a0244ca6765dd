package rest_test

import (
	"context"
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
