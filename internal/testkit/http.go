package testkit

import (
	"io"
	"net/http"
	"testing"
)

// Reply is an HTTP answer read whole.
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req with the default client and reads the whole answer,
// failing the test when it cannot be sent or read.
func Do(t testing.TB, req *http.Request) Reply {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read the answer: %v", req.Method, req.URL.Path, err)
	}
	return Reply{Status: res.StatusCode, Header: res.Header, Body: b}
}
