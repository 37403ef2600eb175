/*
Copyright 2023 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package cel

import (
	"math/rand"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func timeNow() time.Time {
	return time.Now()
}

func unixSecond(t time.Time) float64 {
	return float64(t.UnixNano()) / float64(time.Second)
}

type sinceResource interface {
	GetCreationTimestamp() metav1.Time
}

func sinceSecond[T sinceResource](t T) float64 {
	return time.Since(t.GetCreationTimestamp().Time).Seconds()
}

func mathRand() float64 {
	//nolint: gosec
	return rand.Float64()
}
