package wellknown

// Keys of LeaderWorkerSet (leaderworkerset.x-k8s.io/v1), which puts them on
// the pods of each group: the leader (worker index 0) and its workers.
const (
	// LWSNameLabel names the LeaderWorkerSet of a pod.
	LWSNameLabel = "leaderworkerset.sigs.k8s.io/name"
	// LWSGroupIndexLabel is the pod's group (replica) of the set.
	LWSGroupIndexLabel = "leaderworkerset.sigs.k8s.io/group-index"
	// LWSWorkerIndexLabel is the pod's index in its group; the leader's is 0.
	LWSWorkerIndexLabel = "leaderworkerset.sigs.k8s.io/worker-index"
	// LWSGroupKeyLabel is unique to one incarnation of a group (a hash of
	// its leader's namespace and name).
	LWSGroupKeyLabel = "leaderworkerset.sigs.k8s.io/group-key"
	// LWSSizeAnnotation is the number of pods of a group, its leader
	// included.
	LWSSizeAnnotation = "leaderworkerset.sigs.k8s.io/size"
	// LWSExclusiveTopologyAnnotation, set on a LeaderWorkerSet and copied
	// to its pods, is the node label whose domains its groups hold one
	// each, alone.
	LWSExclusiveTopologyAnnotation = "leaderworkerset.sigs.k8s.io/exclusive-topology"
	// LWSLeaderNameAnnotation on a worker names its group's leader pod.
	LWSLeaderNameAnnotation = "leaderworkerset.sigs.k8s.io/leader-name"
)

// The LeaderWorkerSet API (leaderworkerset.x-k8s.io/v1). Its Go module is
// not available here; what is read of the object is defined where it is
// read (pkg/webhook).
const (
	LWSGroup    = "leaderworkerset.x-k8s.io"
	LWSVersion  = "v1"
	LWSResource = "leaderworkersets"
)
