package testkit

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy is a TCP relay on 127.0.0.1 in front of an address. Paused, it
// keeps every connection open but passes no byte either way: what a
// client sees of a frozen server (a stopped process, a dead route).
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	paused bool
	resume chan struct{} // closed on Resume
	conns  []net.Conn
	wg     sync.WaitGroup
}

// NewProxy relays 127.0.0.1:<port> to target (host:port) until the test
// ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy listen: %v", err)
	}
	p := &Proxy{ln: ln, target: target, resume: make(chan struct{})}
	close(p.resume)
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Pause stops passing bytes (connections stay open, new ones are
// accepted and connected but pass nothing either).
func (p *Proxy) Pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.paused {
		p.paused, p.resume = true, make(chan struct{})
	}
}

// Resume passes bytes again, first those held while paused.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		p.paused = false
		close(p.resume)
	}
}

func (p *Proxy) gate() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resume
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(out, in)
		go p.pipe(in, out)
	}
}

// pipe copies src to dst, holding each chunk while paused.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			<-p.gate()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				_ = src.Close()
			}
			return
		}
	}
}

func (p *Proxy) close() {
	p.ln.Close()
	p.Resume()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
