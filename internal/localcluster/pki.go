package localcluster

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// certValidity is how long the generated certificates stay valid. Every
// start generates a new set, so this only has to outlive one session.
const certValidity = 30 * 24 * time.Hour

// pki is the cluster's certificate authority and the files issued by it.
type pki struct {
	dir    string
	caCert *x509.Certificate
	caKey  crypto.Signer
}

// CAFile is the CA certificate every component trusts.
func (p *pki) CAFile() string { return filepath.Join(p.dir, "ca.crt") }

// newPKI creates a CA under dir (which it empties first).
func newPKI(dir string) (*pki, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "multislice-localcluster-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	p := &pki{dir: dir, caCert: cert, caKey: key}
	if err := writePEM(p.CAFile(), "CERTIFICATE", der); err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	if err := writePEM(filepath.Join(dir, "ca.key"), "PRIVATE KEY", keyDER); err != nil {
		return nil, err
	}
	return p, nil
}

// keyPair is a certificate and key file pair.
type keyPair struct {
	Cert string
	Key  string
}

// serving issues a serving certificate for the loopback address and the
// given extra DNS names and IPs, written as <name>.crt / <name>.key.
func (p *pki) serving(name string, dnsNames []string, ips ...net.IP) (keyPair, error) {
	return p.issue(name, x509.Certificate{
		Subject:     pkix.Name{CommonName: name},
		DNSNames:    append([]string{"localhost"}, dnsNames...),
		IPAddresses: append([]net.IP{net.IPv4(127, 0, 0, 1)}, ips...),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
}

// client issues a client certificate for user in groups.
func (p *pki) client(name, user string, groups ...string) (keyPair, error) {
	return p.issue(name, x509.Certificate{
		Subject:     pkix.Name{CommonName: user, Organization: groups},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
}

func (p *pki) issue(name string, tmpl x509.Certificate) (keyPair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return keyPair{}, err
	}
	now := time.Now()
	tmpl.SerialNumber = serial()
	tmpl.NotBefore = now.Add(-time.Hour)
	tmpl.NotAfter = now.Add(certValidity)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment
	der, err := x509.CreateCertificate(rand.Reader, &tmpl, p.caCert, key.Public(), p.caKey)
	if err != nil {
		return keyPair{}, fmt.Errorf("certificate %s: %w", name, err)
	}
	kp := keyPair{Cert: filepath.Join(p.dir, name+".crt"), Key: filepath.Join(p.dir, name+".key")}
	if err := writePEM(kp.Cert, "CERTIFICATE", der); err != nil {
		return keyPair{}, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return keyPair{}, err
	}
	return kp, writePEM(kp.Key, "PRIVATE KEY", keyDER)
}

// serviceAccountKeys writes the RSA key pair that signs service account
// tokens: sa.key (private, for the apiserver and controller manager) and
// sa.pub (public, for token verification).
func (p *pki) serviceAccountKeys() (keyPair, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return keyPair{}, err
	}
	kp := keyPair{Key: filepath.Join(p.dir, "sa.key"), Cert: filepath.Join(p.dir, "sa.pub")}
	if err := writePEM(kp.Key, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key)); err != nil {
		return keyPair{}, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return keyPair{}, err
	}
	return kp, writePEM(kp.Cert, "PUBLIC KEY", pub)
}

// CABundle returns the CA certificate in PEM.
func (p *pki) CABundle() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.caCert.Raw})
}

func writePEM(path, blockType string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der}), 0o600)
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	return n
}
