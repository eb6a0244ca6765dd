package cli

import "testing"

// TestHostLimitsPerHost: the accounts of one host (however its base URL
// is spelled) share one rest.HostLimits; another port, scheme or host
// gets its own.
func TestHostLimitsPerHost(t *testing.T) {
	m := hostLimits{}
	a := m.of("https://api.example.com", nil)
	for _, same := range []string{"https://api.example.com/", "HTTPS://API.example.com:443", "https://api.example.com:443/"} {
		if m.of(same, nil) != a {
			t.Errorf("%q: other limits than https://api.example.com's, want the same", same)
		}
	}
	for _, other := range []string{"http://api.example.com", "https://api.example.com:8443", "https://api2.example.com", "http://127.0.0.1:1234"} {
		if m.of(other, nil) == a {
			t.Errorf("%q: https://api.example.com's limits, want its own", other)
		}
	}
	if m.of("http://127.0.0.1:1234", nil) != m.of("http://127.0.0.1:1234/", nil) || m.of("http://127.0.0.1:1234", nil) == m.of("http://127.0.0.1:1235", nil) {
		t.Error("simulator URLs: want one limits per port")
	}
}
