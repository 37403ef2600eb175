package feed

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// jsonConfig is cfg speaking JSON: custom resources speak nothing else,
// and the scheduler's own config asks for protobuf (reads would fall back
// to JSON, writes would not).
func jsonConfig(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.ContentType = runtime.ContentTypeJSON
	cfg.AcceptContentTypes = runtime.ContentTypeJSON
	return cfg
}
