package harness

import (
	"io"
	"net"
	"sync"
)

// tcpProxy forwards loopback connections to the current apiserver. Clients
// keep one stable address while the apiserver behind it is replaced, which
// is what a restart looks like from a scheduler pod behind a Service.
type tcpProxy struct {
	listener net.Listener

	mu      sync.Mutex
	backend string
	conns   map[net.Conn]struct{}
	closed  bool
	wg      sync.WaitGroup
}

func newTCPProxy() (*tcpProxy, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &tcpProxy{listener: l, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

func (p *tcpProxy) addr() string { return p.listener.Addr().String() }

// setBackend points new connections at addr; "" refuses them, as a down
// apiserver would. Open connections are cut either way.
func (p *tcpProxy) setBackend(addr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.backend = addr
	for c := range p.conns {
		_ = c.Close()
	}
}

func (p *tcpProxy) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	_ = p.listener.Close()
	p.setBackend("")
	p.wg.Wait()
}

func (p *tcpProxy) serve() {
	defer p.wg.Done()
	for {
		client, err := p.listener.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		backend, closed := p.backend, p.closed
		p.mu.Unlock()
		if closed || backend == "" {
			_ = client.Close()
			continue
		}
		server, err := net.Dial("tcp", backend)
		if err != nil {
			_ = client.Close()
			continue
		}
		p.mu.Lock()
		p.conns[client] = struct{}{}
		p.conns[server] = struct{}{}
		p.mu.Unlock()
		p.wg.Add(1)
		go p.pipe(client, server)
	}
}

func (p *tcpProxy) pipe(client, server net.Conn) {
	defer p.wg.Done()
	done := make(chan struct{}, 2)
	copyAndSignal := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go copyAndSignal(server, client)
	go copyAndSignal(client, server)
	<-done
	_ = client.Close()
	_ = server.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, server)
	p.mu.Unlock()
}
