package localcluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// MetricsEndpoint is where one multislice-scheduler replica serves
// /metrics, and how to read it: its secure port delegates authentication
// and authorization to the apiserver, as a production Deployment's does,
// so the admin's client certificate (system:masters) may read it.
type MetricsEndpoint struct {
	// Replica is the process name (see SchedulerReplicas).
	Replica string
	URL     string
	// CAFile verifies the endpoint; CertFile and KeyFile are the admin's
	// client certificate.
	CAFile, CertFile, KeyFile string
}

// MetricsEndpoints lists the replicas' /metrics endpoints, in replica
// order.
func (c *Cluster) MetricsEndpoints() []MetricsEndpoint {
	var out []MetricsEndpoint
	for i, name := range c.SchedulerReplicas() {
		out = append(out, MetricsEndpoint{
			Replica: name, URL: loopbackURL("https", c.ports.schedulers[i]) + "/metrics",
			CAFile: c.pki.CAFile(), CertFile: c.adminCert.Cert, KeyFile: c.adminCert.Key,
		})
	}
	return out
}

// Command is a shell command that prints the endpoint's metrics.
func (m MetricsEndpoint) Command() string {
	return fmt.Sprintf("curl -s --cacert %s --cert %s --key %s %s", m.CAFile, m.CertFile, m.KeyFile, m.URL)
}

// Fetch reads the endpoint's metrics, in the Prometheus text format.
func (m MetricsEndpoint) Fetch(ctx context.Context) (string, error) {
	cert, err := tls.LoadX509KeyPair(m.CertFile, m.KeyFile)
	if err != nil {
		return "", err
	}
	caPEM, err := os.ReadFile(m.CAFile)
	if err != nil {
		return "", err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return "", fmt.Errorf("no certificate in %s", m.CAFile)
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.URL, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET %s: %s: %s", m.URL, resp.Status, body)
	}
	return string(body), nil
}
