package testkit

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// SSHKey is a new ed25519 key pair for an SSH client of a test.
func SSHKey(t testing.TB) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// WriteAuthorizedKeys writes an authorized_keys file at path (0600)
// listing keys, viewer0@test, viewer1@test, …, after a comment line; no
// keys is a file that authorizes nobody.
func WriteAuthorizedKeys(t testing.TB, path string, keys ...ssh.Signer) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("# viewers of bhtop serve\n\n")
	for i, k := range keys {
		b.WriteString(strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k.PublicKey()))))
		fmt.Fprintf(&b, " viewer%d@test\n", i)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// OpenSSHKey writes an ed25519 private key file for the stock OpenSSH
// client, in a folder of its own, and returns it with its signer.
func OpenSSHKey(t testing.TB) (file string, signer ssh.Signer) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "bhtop test")
	if err != nil {
		t.Fatal(err)
	}
	file = WriteFile(t, filepath.Join(t.TempDir(), "id_ed25519"), string(pem.EncodeToMemory(block)))
	if signer, err = ssh.NewSignerFromKey(priv); err != nil {
		t.Fatal(err)
	}
	return file, signer
}

// OpenSSHArgs are the stock OpenSSH client's arguments for logging in to
// addr (host:port) as desk with keyFile alone, reading no ssh config and
// asking nothing: the host key checked against knownHosts, or not at all
// when knownHosts is ""; options go before the destination.
func OpenSSHArgs(addr, keyFile, knownHosts string, options ...string) []string {
	host, port, _ := net.SplitHostPort(addr)
	hostKey := []string{"-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + knownHosts}
	if knownHosts == "" {
		hostKey = []string{"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"}
	}
	args := append([]string{"-p", port, "-i", keyFile, "-F", "/dev/null", "-o", "IdentitiesOnly=yes"}, hostKey...)
	args = append(append(args, "-o", "BatchMode=yes"), options...)
	return append(args, "desk@"+host)
}
