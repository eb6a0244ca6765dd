package testkit

import (
	"net"
	"testing"
)

// FreeAddr returns a 127.0.0.1 address that was free a moment ago: one
// to serve on, or one where nothing listens.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
