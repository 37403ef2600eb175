package harness

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/big"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// FaultSeedEnv names the environment variable that seeds a FaultProxy's
// random choices. Every proxy logs its seed; running the test again with
// the variable set to it repeats the same sequence of choices (for the same
// order of matching requests).
const FaultSeedEnv = "HARNESS_FAULT_SEED"

// FaultProxy is an HTTPS reverse proxy in front of a ControlPlane. Clients
// configured with its Kubeconfig or Config reach the same apiserver as
// every other client, except that the requests matched by its rules can be
// failed, dropped after the apiserver applied them, delayed or held. It
// lets a test reproduce what a scheduler meets on a real cluster (a bind
// that times out but happened, a status write refused under load) for one
// client only, while the test's own client keeps a clean connection.
type FaultProxy struct {
	t        testing.TB
	base     *rest.Config
	upstream *url.URL
	server   *http.Server
	listener net.Listener
	proxy    *httputil.ReverseProxy
	infos    *request.RequestInfoFactory

	mu      sync.Mutex
	rules   []FaultRule
	gates   map[string]chan struct{}
	counts  map[string]*FaultCount
	rng     *mathrand.Rand
	conns   map[net.Conn]struct{}
	closed  bool
	stopped chan struct{}
	active  sync.WaitGroup
}

// FaultRule says what to do with the requests it matches. Rules are tried
// in order and the first whose Match accepts a request applies, alone; a
// request no rule matches is forwarded untouched. The effects of one rule
// apply in this order: Hold, Delay, then Fail or Drop (Fail is rolled
// first; a request that fails is not forwarded, so it cannot also drop).
type FaultRule struct {
	// Name identifies the rule in Counts and Release. Names must be unique
	// and not empty.
	Name string
	// Match selects the requests the rule applies to.
	Match RequestMatcher
	// Fail is the probability (0 to 1) of answering the request with an
	// error without forwarding it: the apiserver never sees it.
	Fail float64
	// Code is the HTTP status a failed request is answered with: 500 when
	// zero, or 429, 503 or any other error status. The body is a
	// metav1.Status with the matching reason (InternalError,
	// TooManyRequests, ServiceUnavailable...), as the apiserver would
	// write it, and no Retry-After header, so client-go returns the error
	// rather than retrying on its own. With Drop, a non-zero Code answers
	// a dropped request with this status instead of cutting the stream.
	Code int
	// Drop is the probability (0 to 1) of forwarding the request, letting
	// the apiserver apply it, and then not delivering the response: the
	// client's stream is reset (HTTP/2) or its connection closed
	// (HTTP/1.1), so the client sees a failed request that in fact took
	// effect.
	Drop float64
	// Delay is added before the request is forwarded.
	Delay time.Duration
	// Ensure fails the rule's first matching request and drops the
	// response of its second, whatever Fail and Drop say, so that a short
	// run injects both kinds of fault however few requests match.
	Ensure bool
	// Hold blocks matching requests until Release(Name) is called, the
	// client gives up, or the proxy stops. Once released the rule holds
	// nothing more until SetRules installs it again.
	Hold bool
}

// FaultCount counts what a rule did.
type FaultCount struct {
	// Seen is the number of requests the rule matched.
	Seen int
	// Failed were answered with an error and not forwarded.
	Failed int
	// Dropped were forwarded and their response withheld.
	Dropped int
	// Delayed waited Delay before going on.
	Delayed int
	// Held were blocked until Release (counted when they start waiting).
	Held int
}

// RequestMatcher selects requests by what the apiserver would make of
// them: verb (create, update, patch, delete, deletecollection, get, list,
// watch), API group, resource, subresource, namespace and name. Any
// function of that form works as a matcher; the constructors below cover
// the scheduler's writes.
type RequestMatcher func(info *request.RequestInfo) bool

// writeVerbs are the verbs Verb("") matches: every request that changes
// something. Reads (get, list, watch) are matched only when asked for.
var writeVerbs = sets.New("create", "update", "patch", "delete", "deletecollection")

// Verb matches resource requests by verb, API group ("" is the core
// group), resource and subresource ("" is the object itself, not one of
// its subresources). An empty verb matches every write (create, update,
// patch, delete, deletecollection) and never a read; "*" matches every
// verb, reads included. "*" as group, resource or subresource matches any.
func Verb(verb, group, resource, subresource string) RequestMatcher {
	return func(info *request.RequestInfo) bool {
		if info == nil || !info.IsResourceRequest {
			return false
		}
		switch verb {
		case "":
			if !writeVerbs.Has(info.Verb) {
				return false
			}
		case "*":
		default:
			if info.Verb != verb {
				return false
			}
		}
		return matchPart(group, info.APIGroup) && matchPart(resource, info.Resource) &&
			matchPart(subresource, info.Subresource)
	}
}

func matchPart(want, got string) bool { return want == "*" || want == got }

// Any matches a request that any of the matchers matches.
func Any(matchers ...RequestMatcher) RequestMatcher {
	return func(info *request.RequestInfo) bool {
		for _, m := range matchers {
			if m(info) {
				return true
			}
		}
		return false
	}
}

// Binds matches pod bindings (POST pods/binding), the scheduler's final
// write for every pod it places.
func Binds() RequestMatcher { return Verb("create", "", "pods", "binding") }

// PodDeletes matches pod deletions, which is how the scheduler preempts
// and evicts.
func PodDeletes() RequestMatcher { return Verb("delete", "", "pods", "") }

// PodStatusPatches matches writes of pods' status (PATCH or PUT
// pods/status): the scheduler's PodScheduled conditions, nominated nodes
// and DisruptionTarget conditions.
func PodStatusPatches() RequestMatcher {
	return Any(Verb("patch", "", "pods", "status"), Verb("update", "", "pods", "status"))
}

// WorkloadWrites matches every write (create, update, patch, delete) to
// multislice.dev Workloads and their status, which only the leading
// replica makes.
func WorkloadWrites() RequestMatcher {
	return Any(Verb("", "multislice.dev", "workloads", ""), Verb("", "multislice.dev", "workloads", "status"))
}

// LeaseWrites matches writes to coordination.k8s.io Leases: a leader's
// renewals and a candidate's attempts to acquire, so a test can make a
// leader lose its lease.
func LeaseWrites() RequestMatcher { return Verb("", "coordination.k8s.io", "leases", "") }

// StartFaultProxy starts a FaultProxy in front of the control plane's
// stable address, with no rules, and stops it when the test ends. It
// survives cp.Restart: the address behind it stays the same.
func (cp *ControlPlane) StartFaultProxy(t testing.TB) *FaultProxy {
	t.Helper()
	upstream, err := url.Parse(cp.Config.Host)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := selfSignedCert()
	if err != nil {
		t.Fatalf("fault proxy certificate: %v", err)
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(FaultSeedEnv); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", FaultSeedEnv, s, err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fp := &FaultProxy{
		t:        t,
		base:     cp.Config,
		upstream: upstream,
		listener: l,
		infos: &request.RequestInfoFactory{
			APIPrefixes:          sets.NewString("api", "apis"),
			GrouplessAPIPrefixes: sets.NewString("api"),
		},
		gates:   map[string]chan struct{}{},
		counts:  map[string]*FaultCount{},
		rng:     mathrand.New(mathrand.NewPCG(seed, seed)),
		conns:   map[net.Conn]struct{}{},
		stopped: make(chan struct{}),
	}
	fp.proxy = newReverseProxy(upstream, &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true}, // the apiserver's self-signed loopback cert
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 100,
		IdleConnTimeout:     90 * time.Second,
	})
	fp.server = &http.Server{
		Handler:   fp,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}},
		ConnState: fp.trackConn,
		ErrorLog:  log.New(io.Discard, "", 0),
	}
	go func() { _ = fp.server.ServeTLS(l, "", "") }()
	t.Logf("fault proxy %s in front of %s, seed %d (%s=%d repeats it)", fp.URL(), cp.Config.Host, seed, FaultSeedEnv, seed)
	t.Cleanup(fp.stop)
	return fp
}

// newReverseProxy forwards to upstream, streaming responses as they come
// (watches, long requests). When the upstream cannot be reached, or breaks
// off, the client's stream is cut rather than answered: a client then sees
// what it would see from a failed apiserver, a connection error, and
// client-go retries reads as it would.
func newReverseProxy(upstream *url.URL, transport http.RoundTripper) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(upstream)
		},
		Transport:     transport,
		FlushInterval: -1,
		ErrorLog:      log.New(io.Discard, "", 0),
		ErrorHandler: func(http.ResponseWriter, *http.Request, error) {
			panic(http.ErrAbortHandler)
		},
	}
}

// URL is the proxy's https base URL.
func (fp *FaultProxy) URL() string { return "https://" + fp.listener.Addr().String() }

// Config returns an admin REST config (the control plane's, with its QPS)
// whose requests go through the proxy.
func (fp *FaultProxy) Config() *rest.Config {
	cfg := rest.CopyConfig(fp.base)
	cfg.Host = fp.URL()
	cfg.TLSClientConfig = rest.TLSClientConfig{Insecure: true} // the proxy's self-signed cert
	return cfg
}

// Kubeconfig writes an admin kubeconfig whose server is the proxy, for a
// component run with a --kubeconfig or a scheduler configuration's
// clientConnection (see RenderSchedulerConfig and ReplicaOptions).
func (fp *FaultProxy) Kubeconfig(t testing.TB, name string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["fault-proxy"] = &clientcmdapi.Cluster{Server: fp.URL(), InsecureSkipTLSVerify: true}
	cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: adminToken}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: "fault-proxy", AuthInfo: name}
	cfg.CurrentContext = name
	path := filepath.Join(t.TempDir(), name+".kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// SetSeed restarts the proxy's random choices from seed.
func (fp *FaultProxy) SetSeed(seed uint64) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	fp.rng = mathrand.New(mathrand.NewPCG(seed, seed))
}

// SetRules replaces the rules, at once for every request that arrives
// after it; requests already past their rule are not affected. A held
// request whose rule is no longer installed is released. Counts carry
// over by rule name. It panics on a rule without a name or without a
// matcher, or on two rules of one name: those are mistakes in the test.
func (fp *FaultProxy) SetRules(rules ...FaultRule) {
	names := map[string]bool{}
	for _, r := range rules {
		if r.Name == "" || r.Match == nil || names[r.Name] {
			panic(fmt.Sprintf("fault proxy: rule %q: every rule needs a unique name and a matcher", r.Name))
		}
		names[r.Name] = true
	}
	fp.mu.Lock()
	defer fp.mu.Unlock()
	holds := map[string]bool{}
	for _, r := range rules {
		if r.Hold {
			holds[r.Name] = true
		}
	}
	for name, gate := range fp.gates {
		if !holds[name] {
			closeGate(gate)
			delete(fp.gates, name)
		}
	}
	for name := range holds {
		// An installed hold that is still closed keeps what it holds;
		// one that was released holds again.
		if gate, ok := fp.gates[name]; !ok || isOpen(gate) {
			fp.gates[name] = make(chan struct{})
		}
	}
	fp.rules = append([]FaultRule(nil), rules...)
	for _, r := range rules {
		if fp.counts[r.Name] == nil {
			fp.counts[r.Name] = &FaultCount{}
		}
	}
}

// Release lets every request held by the named rule go on, and the ones
// it matches later pass without waiting.
func (fp *FaultProxy) Release(name string) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if gate, ok := fp.gates[name]; ok {
		closeGate(gate)
	}
}

func closeGate(gate chan struct{}) {
	if !isOpen(gate) {
		close(gate)
	}
}

// isOpen reports whether a gate lets requests through (was released).
func isOpen(gate chan struct{}) bool {
	select {
	case <-gate:
		return true
	default:
		return false
	}
}

// Counts returns a copy of every rule's counts so far, by rule name.
func (fp *FaultProxy) Counts() map[string]FaultCount {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	out := make(map[string]FaultCount, len(fp.counts))
	for name, c := range fp.counts {
		out[name] = *c
	}
	return out
}

// WaitHeld waits until the named rule has held at least n requests, so a
// test knows the request it expects is blocked before it acts.
func (fp *FaultProxy) WaitHeld(t testing.TB, name string, n int) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 20*time.Millisecond, WaitTimeout, true, func(context.Context) (bool, error) {
		return fp.Counts()[name].Held >= n, nil
	})
	if err != nil {
		t.Fatalf("fault proxy: rule %q held %d requests, want %d: %v", name, fp.Counts()[name].Held, n, err)
	}
}

// CutConnections closes every open client connection to the proxy, with
// the requests and watches on them, as a restarted apiserver or a broken
// network would; clients reconnect on their next request.
func (fp *FaultProxy) CutConnections() {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	for c := range fp.conns {
		_ = c.Close()
	}
}

func (fp *FaultProxy) trackConn(c net.Conn, state http.ConnState) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	switch state {
	case http.StateNew:
		fp.conns[c] = struct{}{}
	case http.StateHijacked, http.StateClosed:
		delete(fp.conns, c)
	}
}

// stop releases held and delayed requests, closes every connection and
// waits for the requests in flight to end.
func (fp *FaultProxy) stop() {
	fp.mu.Lock()
	fp.closed = true
	close(fp.stopped)
	fp.mu.Unlock()
	_ = fp.server.Close()
	if t, ok := fp.proxy.Transport.(*http.Transport); ok {
		t.CloseIdleConnections()
	}
	done := make(chan struct{})
	go func() {
		fp.active.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		fp.t.Logf("fault proxy: requests still in flight 10s after it stopped")
	}
}

// ServeHTTP applies the first matching rule and forwards the request.
func (fp *FaultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fp.mu.Lock()
	if fp.closed {
		fp.mu.Unlock()
		panic(http.ErrAbortHandler)
	}
	fp.active.Add(1)
	defer fp.active.Done()
	rule, gate := fp.match(r)
	var nth int
	if rule != nil {
		nth = fp.counts[rule.Name].Seen
	}
	fp.mu.Unlock()

	if rule == nil {
		fp.proxy.ServeHTTP(w, r)
		return
	}
	if gate != nil && !isOpen(gate) {
		fp.count(rule.Name, func(c *FaultCount) { c.Held++ })
		select {
		case <-gate:
		case <-fp.stopped:
			panic(http.ErrAbortHandler)
		case <-r.Context().Done():
			panic(http.ErrAbortHandler)
		}
	}
	if rule.Delay > 0 {
		fp.count(rule.Name, func(c *FaultCount) { c.Delayed++ })
		timer := time.NewTimer(rule.Delay)
		select {
		case <-timer.C:
		case <-fp.stopped:
			timer.Stop()
			panic(http.ErrAbortHandler)
		case <-r.Context().Done():
			timer.Stop()
			panic(http.ErrAbortHandler)
		}
	}
	// Ensure decides the first two requests alone: a second request that
	// rolled a failure would leave the run without a dropped response.
	ensured := rule.Ensure && nth <= 2
	if (ensured && nth == 1) || (!ensured && fp.roll(rule.Fail)) {
		fp.count(rule.Name, func(c *FaultCount) { c.Failed++ })
		writeStatus(w, rule.Code, rule.Name)
		return
	}
	if (ensured && nth == 2) || (!ensured && fp.roll(rule.Drop)) {
		fp.count(rule.Name, func(c *FaultCount) { c.Dropped++ })
		fp.proxy.ServeHTTP(&discardResponse{header: http.Header{}}, r)
		if rule.Code != 0 {
			writeStatus(w, rule.Code, rule.Name)
			return
		}
		panic(http.ErrAbortHandler)
	}
	fp.proxy.ServeHTTP(w, r)
}

// match returns the first rule matching r (counted as seen) and its hold
// gate; fp.mu is held.
func (fp *FaultProxy) match(r *http.Request) (*FaultRule, chan struct{}) {
	if len(fp.rules) == 0 {
		return nil, nil
	}
	info, err := fp.infos.NewRequestInfo(r)
	if err != nil {
		return nil, nil
	}
	for i := range fp.rules {
		rule := fp.rules[i]
		if !rule.Match(info) {
			continue
		}
		fp.counts[rule.Name].Seen++
		if rule.Hold {
			return &rule, fp.gates[rule.Name]
		}
		return &rule, nil
	}
	return nil, nil
}

func (fp *FaultProxy) count(name string, f func(*FaultCount)) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	f(fp.counts[name])
}

// roll reports true with probability p.
func (fp *FaultProxy) roll(p float64) bool {
	switch {
	case p <= 0:
		return false
	case p >= 1:
		return true
	}
	fp.mu.Lock()
	defer fp.mu.Unlock()
	return fp.rng.Float64() < p
}

// writeStatus answers with an apiserver-style error: a metav1.Status of
// the code's reason.
func writeStatus(w http.ResponseWriter, code int, rule string) {
	if code == 0 {
		code = http.StatusInternalServerError
	}
	reason := metav1.StatusReasonUnknown
	switch code {
	case http.StatusInternalServerError:
		reason = metav1.StatusReasonInternalError
	case http.StatusTooManyRequests:
		reason = metav1.StatusReasonTooManyRequests
	case http.StatusServiceUnavailable:
		reason = metav1.StatusReasonServiceUnavailable
	case http.StatusGatewayTimeout:
		reason = metav1.StatusReasonTimeout
	case http.StatusConflict:
		reason = metav1.StatusReasonConflict
	case http.StatusForbidden:
		reason = metav1.StatusReasonForbidden
	case http.StatusNotFound:
		reason = metav1.StatusReasonNotFound
	}
	body, _ := json.Marshal(&metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  fmt.Sprintf("fault injected by the test's fault proxy (rule %q)", rule),
		Reason:   reason,
		Code:     int32(code),
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// discardResponse swallows the response of a dropped request.
type discardResponse struct{ header http.Header }

func (d *discardResponse) Header() http.Header         { return d.header }
func (d *discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardResponse) WriteHeader(int)             {}
func (d *discardResponse) Flush()                      {}

// selfSignedCert makes a serving certificate for 127.0.0.1 and localhost,
// valid for a day.
func selfSignedCert() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "harness-fault-proxy"},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
