package webhook

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The files of a certificate directory, as a kubernetes.io/tls Secret
// mounted there has them.
const (
	CertFile = "tls.crt"
	KeyFile  = "tls.key"
)

// Server serves the webhook and its probes over TLS:
//
//	POST /mutate   AdmissionReview (Handler)
//	GET  /healthz  200 while serving
//	GET  /readyz   200 once ready() holds (the informers have synced)
type Server struct {
	Handler http.Handler
	// Ready reports whether the webhook can decide (nil: always).
	Ready func() bool
	// CertDir holds CertFile and KeyFile, read again whenever they change
	// (a Secret's files are replaced when it is renewed).
	CertDir string
}

// Serve serves on ln until ctx ends, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	certs := &certReloader{cert: filepath.Join(s.CertDir, CertFile), key: filepath.Join(s.CertDir, KeyFile)}
	if _, err := certs.get(); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(ServePath, s.Handler)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if s.Ready != nil && !s.Ready() {
			http.Error(w, "informers not synced", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		TLSConfig: &tls.Config{
			MinVersion:     tls.VersionTLS12,
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return certs.get() },
		},
	}
	served := make(chan error, 1)
	go func() { served <- srv.ServeTLS(ln, "", "") }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// certReloader keeps a key pair loaded from files, loading it again when
// either file's modification time changes. A pair that fails to load
// (one file renewed before the other) keeps the last good one.
type certReloader struct {
	cert, key string

	mu       sync.Mutex
	loaded   *tls.Certificate
	certTime time.Time
	keyTime  time.Time
}

func (c *certReloader) get() (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	certInfo, err1 := os.Stat(c.cert)
	keyInfo, err2 := os.Stat(c.key)
	if err := errors.Join(err1, err2); err != nil {
		if c.loaded != nil {
			return c.loaded, nil
		}
		return nil, fmt.Errorf("serving certificate: %w", err)
	}
	if c.loaded != nil && certInfo.ModTime().Equal(c.certTime) && keyInfo.ModTime().Equal(c.keyTime) {
		return c.loaded, nil
	}
	pair, err := tls.LoadX509KeyPair(c.cert, c.key)
	if err != nil {
		if c.loaded != nil {
			return c.loaded, nil
		}
		return nil, fmt.Errorf("serving certificate: %w", err)
	}
	c.loaded, c.certTime, c.keyTime = &pair, certInfo.ModTime(), keyInfo.ModTime()
	return c.loaded, nil
}
