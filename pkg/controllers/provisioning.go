package controllers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	autoscalinginformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions/autoscaling/v1"
	autoscalinglisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/autoscaling/v1"
	listers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Provisioner creates each workload's ProvisioningRequests and carries what
// they say back to the state. It writes only while this replica leads.
type Provisioner struct {
	state     *state.State
	act       func(context.Context, state.Actions)
	events    *EventSink
	evict     *Evictor
	client    multisliceclient.Interface
	kube      kubernetes.Interface
	pods      corelisters.PodLister
	workloads listers.WorkloadLister
	requests  autoscalinglisters.ProvisioningRequestLister
	// kick wakes the creating loop, observed the observing one.
	kick, observed chan struct{}
	// annotating runs the annotations of workloads' pods in the
	// background (see annotateSoon), creating the creations of requests
	// (see createAll).
	annotating, creating *inflight
	mu                   sync.Mutex
	// done is, per workload, the request last observed to the end and
	// the stage it was observed at (see observeUpdates); guarded by mu.
	done map[workload.Key]observation
	// dirty holds the requests (namespace/name) whose objects changed
	// since the last pass, index the workload of each request of ours the
	// last full pass listed or this replica created, and full asks the
	// next pass to observe every request (the state changed); guarded by
	// mu. See observePass.
	dirty map[string]bool
	index map[string]workload.Key
	full  bool
}

// observation is a request observed to the end: its attempt, its
// resourceVersion and the stage of the workload's check then.
type observation struct {
	attempt int32
	version string
	stage   state.CheckStage
}

// NewProvisioner returns the provisioning controller of st: what the state
// asks for after a change is carried out by act, workloads whose capacity
// is revoked are evicted by evict. It writes with client (requests) and
// kube (PodTemplates, pod annotations).
func NewProvisioner(st *state.State, act func(context.Context, state.Actions), events *EventSink, evict *Evictor,
	client multisliceclient.Interface, kube kubernetes.Interface, pods corelisters.PodLister, workloads listers.WorkloadLister) *Provisioner {
	return &Provisioner{state: st, act: act, events: events, evict: evict,
		client: client, kube: kube, pods: pods, workloads: workloads,
		kick: make(chan struct{}, 1), observed: make(chan struct{}, 1),
		annotating: newInflight(annotatingWorkloads), creating: newInflight(creatingRequests),
		done: map[workload.Key]observation{}, dirty: map[string]bool{}, index: map[string]workload.Key{}}
}

// Start watches ProvisioningRequests through informer, which the caller
// starts, and, in whileLeading, observes them and creates those to
// create, every second and whenever poked. Observing and creating run
// apart: a burst of requests being created never holds back a workload
// whose request answered.
func (p *Provisioner) Start(ctx context.Context, informer autoscalinginformers.ProvisioningRequestInformer, whileLeading func(context.Context, func(context.Context))) error {
	p.requests = informer.Lister()
	poke := func(obj any) {
		if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		// Requests their users made are the consumer feed's.
		if req, ok := obj.(*autoscalingv1.ProvisioningRequest); ok && !provisioning.UserMade(req) {
			p.requestChanged(req.Namespace, req.Name)
		}
	}
	if _, err := informer.Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: poke, UpdateFunc: func(_, obj any) { poke(obj) }, DeleteFunc: poke,
	}); err != nil {
		return err
	}
	whileLeading(ctx, func(ctx context.Context) {
		if !toolscache.WaitForCacheSync(ctx.Done(), informer.Informer().HasSynced) {
			return
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			p.observeLoop(ctx)
		}()
		loop(ctx, p.kick, p.createAll)
		<-done
		// Nothing of this term writes once it ends.
		p.creating.Wait()
		p.annotating.Wait()
		// A later term observes every request afresh.
		p.mu.Lock()
		clear(p.done)
		p.full = true
		p.mu.Unlock()
	})
	return nil
}

// loop runs sync every second and whenever kicked, until ctx ends.
func loop(ctx context.Context, kick <-chan struct{}, sync func(context.Context)) {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		sync(ctx)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		case <-kick:
		}
	}
}

// Poke asks for a pass now: a workload reserved quota for its check, and
// its request can be created now rather than on the next tick; or its
// Workload object, which the request is owned by, appeared.
func (p *Provisioner) Poke() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
	p.mu.Lock()
	p.full = true
	p.mu.Unlock()
	p.pokeObserve()
}

// requestChanged notes that request namespace/name changed and asks for
// a pass.
func (p *Provisioner) requestChanged(namespace, name string) {
	p.mu.Lock()
	p.dirty[objectKey(namespace, name)] = true
	p.mu.Unlock()
	p.pokeObserve()
}

// pokeObserve asks for the requests to be observed now: one changed.
func (p *Provisioner) pokeObserve() {
	select {
	case p.observed <- struct{}{}:
	default:
	}
}

// syncParallelism bounds the requests observed at once: one workload's
// API calls (pod annotations) must not hold back another's, whose
// capacity may be ready.
const syncParallelism = 16

// creatingRequests bounds the requests being created at once. Each is two
// round trips (its PodTemplates, then itself) of about 0.2 s each on the
// loaded apiserver of a burst of 300 gangs: 16 at once created about 35 a
// second, fewer than the gangs came, and the last waited seconds.
const creatingRequests = 64

// annotateParallelism bounds the pod patches of one workload in flight at
// once, annotatingWorkloads the workloads annotated at once in the
// background.
const (
	annotateParallelism = 4
	annotatingWorkloads = 8
)

// objectKey is how the controllers' records (the provisioner's dirty,
// index and requests being created, the status writer's created and
// Workload objects being created) name an object: namespace/name.
func objectKey(namespace, name string) string { return namespace + "/" + name }

// observeLoop observes requests until ctx ends: every request each
// second and when the state asks (Poke), the requests that changed when
// their objects do (see observePass).
func (p *Provisioner) observeLoop(ctx context.Context) {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	full := true
	for {
		p.observePass(ctx, full)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			full = true
		case <-p.observed:
			full = false
		}
	}
}

// observePass observes every request the state lists (full, or asked
// for by Poke), else only the requests whose objects changed since the
// last pass: a request event costs a lookup of its own workload, not one
// of every workload with a check. A changed request of ours that no pass
// has listed yet makes the pass full.
func (p *Provisioner) observePass(ctx context.Context, full bool) {
	p.mu.Lock()
	full = full || p.full
	p.full = false
	dirty := p.dirty
	p.dirty = map[string]bool{}
	var keys []workload.Key
	for request := range dirty {
		key, ok := p.index[request]
		if !ok {
			full = true
			break
		}
		keys = append(keys, key)
	}
	p.mu.Unlock()
	if full {
		p.observeAll(ctx)
		return
	}
	var updates []state.ProvisioningUpdate
	for _, key := range keys {
		if u, ok := p.state.Reports().ProvisioningRequestOf(key); ok {
			updates = append(updates, u)
		}
	}
	p.observeUpdates(ctx, updates, false)
}

// sync observes every request, then creates the requests to create (one
// pass of each loop).
func (p *Provisioner) sync(ctx context.Context) {
	p.observeAll(ctx)
	p.createAll(ctx)
	p.creating.Wait()
	p.annotating.Wait()
}

// observeAll carries what every request says to the state. A request
// observed to the end at its current resourceVersion, the workload's
// check at the same stage, is passed over: a pass costs a lookup per
// request, and only the requests that changed are observed (every one
// changes at least twice: created, then answered). Observing a provisioned
// workload is quick: its pods name the request already, as creating it
// annotated them (see createAndAnnotate).
func (p *Provisioner) observeAll(ctx context.Context) {
	p.observeUpdates(ctx, p.state.Reports().ProvisioningRequests(), true)
}

// observeUpdates observes updates' requests that changed (see
// observeAll); all lists every request, whose index then replaces the
// one kept.
func (p *Provisioner) observeUpdates(ctx context.Context, updates []state.ProvisioningUpdate, all bool) {
	type change struct {
		u   state.ProvisioningUpdate
		req *autoscalingv1.ProvisioningRequest
	}
	var changed []change
	current := make(map[workload.Key]bool, len(updates))
	p.mu.Lock()
	if all {
		clear(p.index)
	}
	for _, u := range updates {
		current[u.Key] = true
		p.index[objectKey(u.Key.Namespace, u.Request)] = u.Key
		req, err := p.requests.ProvisioningRequests(u.Key.Namespace).Get(u.Request)
		if err != nil {
			continue
		}
		if last, ok := p.done[u.Key]; ok && last == (observation{attempt: u.Attempt, version: req.ResourceVersion, stage: u.Stage}) {
			continue
		}
		changed = append(changed, change{u, req})
	}
	if all {
		for key := range p.done {
			if !current[key] {
				delete(p.done, key)
			}
		}
	}
	p.mu.Unlock()
	if len(changed) == 0 {
		return
	}
	logger := klog.FromContext(ctx)
	var g errgroup.Group
	g.SetLimit(syncParallelism)
	for _, c := range changed {
		g.Go(func() error {
			ended := p.observe(ctx, logger, c.u, c.req)
			p.mu.Lock()
			if ended {
				p.done[c.u.Key] = observation{attempt: c.u.Attempt, version: c.req.ResourceVersion, stage: c.u.Stage}
			} else {
				delete(p.done, c.u.Key)
			}
			p.mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
}

// createAll resumes the checks a previous leader began, then starts
// creating the requests to create that are not being created already. A
// request's creation starts as soon as a slot is free, not once the
// creations of the pass before have returned (see inflight).
func (p *Provisioner) createAll(ctx context.Context) {
	logger := klog.FromContext(ctx)
	st := p.state
	for _, c := range st.Reports().ChecksToRestore() {
		attempt := p.latestAttempt(c)
		logger.Info("Resuming a provisioning check begun before this replica led", "workload", c.Key, "check", c.Check, "attempt", attempt)
		p.act(ctx, st.Upkeep().RestoreCheck(c.Key, attempt))
	}
	for _, task := range st.Upkeep().ProvisioningTasks() {
		p.creating.Go(ctx, objectKey(task.Key.Namespace, task.Request), func(ctx context.Context) {
			p.createAndAnnotate(ctx, &task)
		}, nil)
	}
}

// createAndAnnotate creates task's request, then has its name put on the
// workload's pods (see annotateSoon).
func (p *Provisioner) createAndAnnotate(ctx context.Context, task *state.ProvisioningTask) {
	logger := klog.FromContext(ctx)
	if err := p.create(ctx, task); err != nil {
		if errors.Is(err, errNoWorkloadObject) {
			// The status writer creates it; its appearing wakes this
			// loop.
			logger.V(4).Info("Waiting for the Workload object to own a ProvisioningRequest", "workload", task.Key)
		} else {
			logger.Error(err, "Creating a ProvisioningRequest", "workload", task.Key, "request", task.Request)
		}
		return
	}
	p.act(ctx, p.state.Upkeep().ProvisioningCreated(task.Key, task.Attempt))
	p.mu.Lock()
	p.index[objectKey(task.Key.Namespace, task.Request)] = task.Key
	p.mu.Unlock()
	p.events.Normal(&task.Ref, "ProvisioningRequested", fmt.Sprintf("created ProvisioningRequest %s (class %s, attempt %d)", task.Request, task.Check.Class, task.Attempt))
	p.annotateSoon(ctx, task.Key, task.Request, task.Check.Class)
}

// annotateSoon names a request just created on its workload's pods, in
// the background, at most annotatingWorkloads workloads at once. The name
// is known once the request exists, and the pods carry it while they wait:
// when the request is Provisioned, nothing but the placement is left to
// do. Apart from creating, so that the pod patches do not slow the
// creation of other workloads' requests. Observing the request waits for
// it, then annotates what it missed (pods created since, a failed patch).
func (p *Provisioner) annotateSoon(ctx context.Context, key workload.Key, request, class string) {
	p.annotating.Go(ctx, key.String(), func(ctx context.Context) {
		if err := p.annotate(ctx, key, request, class); err != nil {
			klog.FromContext(ctx).Error(err, "Annotating pods for a ProvisioningRequest", "workload", key, "request", request)
		}
	}, func() { p.requestChanged(key.Namespace, request) })
}

// annotatingNow reports whether key's pods are being annotated in the
// background.
func (p *Provisioner) annotatingNow(key workload.Key) bool {
	return p.annotating.Running(key.String())
}

// observe carries what req, u's request, says to the state, annotating
// the pods of a provisioned workload first. It reports whether it was
// observed to the end: it was carried to the state, and no pod of a
// provisioned workload may be left to annotate.
func (p *Provisioner) observe(ctx context.Context, logger klog.Logger, u state.ProvisioningUpdate, req *autoscalingv1.ProvisioningRequest) bool {
	st := p.state
	reqName := u.Request
	u.Outcome, u.Message = provisioning.Read(req.Status.Conditions)
	if u.Outcome == provisioning.Provisioned {
		sel, missing := provisioning.NodeSelector(&u.Check, req.Status.ProvisioningClassDetails)
		if missing != "" {
			// The config steers the pods with a detail the request
			// does not report (yet): placing them anywhere else could
			// miss the capacity.
			u.Outcome, u.Message = provisioning.Pending, fmt.Sprintf("provisioned, but status.provisioningClassDetails has no %q for the config's podSetUpdates", missing)
		}
		u.NodeSelector = sel
	}
	if u.Outcome == provisioning.Provisioned {
		if p.annotatingNow(u.Key) {
			// Its pods are being annotated; that done, this is
			// observed again.
			return false
		}
		// The autoscaler lets only pods that name the request use its
		// capacity: annotate them before they are placed.
		if err := p.annotate(ctx, u.Key, req.Name, req.Spec.ProvisioningClassName); err != nil {
			logger.Error(err, "Annotating pods for a ProvisioningRequest", "workload", u.Key, "request", reqName)
			return false
		}
	}
	acts, evict := st.Upkeep().ObserveProvisioning(u)
	p.act(ctx, acts)
	if len(evict) > 0 {
		p.evict.Evict(ctx, evict, "CapacityRevoked", fmt.Sprintf("the capacity of ProvisioningRequest %s was revoked; evicting %s whole", reqName, u.Key))
	}
	// Pods created while a provisioned workload waits to be placed must
	// be annotated too: until placed, it is observed again on every full
	// pass, and whenever its request changes.
	return u.Outcome != provisioning.Provisioned || len(st.Reports().PendingMembers(u.Key)) == 0
}

// create makes the task's PodTemplates and request, owned by the
// workload's Workload object (garbage-collected with it). Both are
// idempotent by name.
func (p *Provisioner) create(ctx context.Context, t *state.ProvisioningTask) error {
	wl, err := p.workloads.Workloads(t.Key.Namespace).Get(t.Key.ObjectName())
	if err != nil {
		return errNoWorkloadObject
	}
	owner := []metav1.OwnerReference{{
		APIVersion: multislicev1alpha1.SchemeGroupVersion.String(), Kind: "Workload", Name: wl.Name, UID: wl.UID,
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}}
	sets := provisioning.PodSets(&t.Check, t.Model, t.Slices)
	if len(sets) == 0 {
		return fmt.Errorf("no slice of %s requests a resource the check manages (%v)", t.Key, t.Check.ManagedResources)
	}
	req := &autoscalingv1.ProvisioningRequest{
		ObjectMeta: metav1.ObjectMeta{Namespace: t.Key.Namespace, Name: t.Request, OwnerReferences: owner},
		Spec: autoscalingv1.ProvisioningRequestSpec{
			ProvisioningClassName: t.Check.Class,
			Parameters:            provisioning.Parameters(&t.Check, t.Model.ProvisioningAnnotations),
		},
	}
	// The templates go at once, one per distinct template: the request
	// waits for them all.
	var g errgroup.Group
	for _, ps := range sets {
		name := ps.TemplateName(t.Request)
		req.Spec.PodSets = append(req.Spec.PodSets, autoscalingv1.PodSet{PodTemplateRef: autoscalingv1.Reference{Name: name}, Count: ps.Count})
		if ps.Shares != "" {
			continue
		}
		tmpl := &corev1.PodTemplate{
			ObjectMeta: metav1.ObjectMeta{Namespace: t.Key.Namespace, Name: name, OwnerReferences: owner},
			Template:   corev1.PodTemplateSpec{Spec: *ps.Template.DeepCopy()},
		}
		g.Go(func() error {
			if _, err := p.kube.CoreV1().PodTemplates(t.Key.Namespace).Create(ctx, tmpl, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				return err
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	_, err = p.client.AutoscalingV1().ProvisioningRequests(t.Key.Namespace).Create(ctx, req, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// maxResumedAttempts bounds how far latestAttempt looks.
const maxResumedAttempts = 64

// latestAttempt is the highest attempt of c's check whose request exists
// (0: none does).
func (p *Provisioner) latestAttempt(c state.CheckToRestore) int32 {
	var latest int32
	for n := int32(1); n <= maxResumedAttempts; n++ {
		if _, err := p.requests.ProvisioningRequests(c.Key.Namespace).Get(provisioning.RequestName(c.Key.ObjectName(), c.Check, n)); err == nil {
			latest = n
		}
	}
	return latest
}

// annotate names request (of class) on every pod of the workload key
// waiting to be placed that does not name it yet.
func (p *Provisioner) annotate(ctx context.Context, key workload.Key, request, class string) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": provisioning.PodAnnotations(request, class)}})
	if err != nil {
		return err
	}
	var g errgroup.Group
	g.SetLimit(annotateParallelism)
	for _, ref := range p.state.Reports().PendingMembers(key) {
		pod, err := p.pods.Pods(ref.Namespace).Get(ref.Name)
		if err != nil || pod.UID != ref.UID {
			continue
		}
		if pod.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] == request && pod.Annotations[wellknown.ProvisioningClassNameAnnotation] == class {
			continue
		}
		g.Go(func() error {
			if _, err := p.kube.CoreV1().Pods(ref.Namespace).Patch(ctx, ref.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
			return nil
		})
	}
	return g.Wait()
}

// errNoWorkloadObject: the request's owner is not written yet.
var errNoWorkloadObject = errors.New("the Workload object does not exist yet")
