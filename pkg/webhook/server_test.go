package webhook

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// writeCert writes a self-signed serving certificate for 127.0.0.1 with
// common name cn into dir, as tls.crt and tls.key, modified at mtime.
func writeCert(t *testing.T, dir, cn string, mtime time.Time) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	for name, block := range map[string]*pem.Block{CertFile: {Type: "CERTIFICATE", Bytes: der}, KeyFile: {Type: "PRIVATE KEY", Bytes: keyDER}} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

// The server answers reviews and probes over TLS, is ready only once
// ready() holds, and serves a renewed certificate without a restart.
func TestServer(t *testing.T) {
	dir := t.TempDir()
	writeCert(t, dir, "first", time.Now().Add(-time.Minute))
	var ready atomic.Bool
	srv := &Server{
		Handler: &Handler{Decider: &Decider{Scheduler: scheduler, Lookup: testLookup()}},
		Ready:   ready.Load,
		CertDir: dir,
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	base := "https://" + ln.Addr().String()

	// A new connection per request, so that each sees the certificate
	// served at the time.
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		DisableKeepAlives: true,
		// The test checks which certificate is served, not who signed it.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec
	}}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		return resp.StatusCode, resp.TLS.PeerCertificates[0].Subject.CommonName
	}

	if code, cn := get("/healthz"); code != 200 || cn != "first" {
		t.Errorf("/healthz: %d, certificate %q", code, cn)
	}
	if code, _ := get("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz before ready: %d", code)
	}
	ready.Store(true)
	if code, _ := get("/readyz"); code != 200 {
		t.Errorf("/readyz once ready: %d", code)
	}

	raw := rawJSON(t, builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).Obj())
	resp, err := client.Post(base+ServePath, "application/json", bytes.NewReader(reviewBody(t, podsResource, admissionv1.Create, ns, raw)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"patchType":"JSONPatch"`)) {
		t.Errorf("%s: %d %s", ServePath, resp.StatusCode, body)
	}

	// A renewed Secret: new files, a new modification time.
	writeCert(t, dir, "renewed", time.Now())
	if _, cn := get("/healthz"); cn != "renewed" {
		t.Errorf("after renewal the certificate is %q", cn)
	}
	// A half-written renewal keeps the last good certificate.
	if err := os.WriteFile(filepath.Join(dir, KeyFile), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, cn := get("/healthz"); cn != "renewed" {
		t.Errorf("with a broken key file the certificate is %q", cn)
	}

	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestServerNeedsACertificate(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	err = (&Server{Handler: http.NotFoundHandler(), CertDir: t.TempDir()}).Serve(t.Context(), ln)
	if err == nil {
		t.Fatal("served without a certificate")
	}
}
