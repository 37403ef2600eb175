/*
Copyright 2015 The Kubernetes Authors.

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

package types

const (
	// ResolvConfDefault is the system default DNS resolver configuration.
	ResolvConfDefault = "/etc/resolv.conf"
)

// User visible keys for managing node allocatable enforcement on the node.
const (
	NodeAllocatableEnforcementKey            = "pods"
	SystemReservedEnforcementKey             = "system-reserved"
	SystemReservedCompressibleEnforcementKey = "system-reserved-compressible"
	KubeReservedEnforcementKey               = "kube-reserved"
	KubeReservedCompressibleEnforcementKey   = "kube-reserved-compressible"
	NodeAllocatableNoneKey                   = "none"
)

// SwapBehavior types
type SwapBehavior string

const (
	LimitedSwap SwapBehavior = "LimitedSwap"
	NoSwap      SwapBehavior = "NoSwap"
)

// Pod status condition reasons and messages
const (
	// PodReadyToStartContainers condition reason
	PodSandboxNotReadyReason = "PodSandboxNotReady"

	// PodReadyToStartContainers condition messages
	PodSandboxNotReadyMsgNoPodSandbox         = "no pod sandbox exists"
	PodSandboxNotReadyMsgMultipleSandboxes    = "multiple pod sandboxes are ready and need to be reconciled"
	PodSandboxNotReadyMsgSandboxNotReady      = "pod sandbox is not ready"
	PodSandboxNotReadyMsgNetworkNamespaceMode = "network namespace mode changed and sandbox needs to be recreated"
	PodSandboxNotReadyMsgNoIPAddress          = "pod sandbox has no IP address"
)
