package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
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
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			err := rest.New(srv.URL).SyncTime(context.Background())
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
