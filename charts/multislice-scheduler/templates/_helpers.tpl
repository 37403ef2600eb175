{{/*
The chart name, or nameOverride: the app.kubernetes.io/name label that the
Deployment, PodDisruptionBudget, Service and anti-affinity select pods by.
*/}}
{{- define "multislice-scheduler.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The base of every object name: fullnameOverride, else the release name,
followed by the chart name unless the release name already contains it
(release multislice-scheduler: "multislice-scheduler", as in manifests/).
*/}}
{{- define "multislice-scheduler.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := include "multislice-scheduler.name" . }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The namespace of the chart's namespaced objects. */}}
{{- define "multislice-scheduler.namespace" -}}
{{- default .Release.Namespace .Values.namespace.name }}
{{- end }}

{{/*
Labels Helm adds to every object; `make verify-chart` ignores exactly these
when it compares the chart with manifests/.
*/}}
{{- define "multislice-scheduler.helmLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- with .Chart.AppVersion }}
app.kubernetes.io/version: {{ . | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
What the Deployment's pods are selected by. It never includes Helm's
labels: a Deployment's selector cannot change after it is created.
*/}}
{{- define "multislice-scheduler.selectorLabels" -}}
app.kubernetes.io/name: {{ include "multislice-scheduler.name" . }}
{{- end }}

{{/*
What the webhook's pods are selected by: a name of their own, so that
nothing of the scheduler's selects them.
*/}}
{{- define "multislice-scheduler.webhookSelectorLabels" -}}
app.kubernetes.io/name: {{ include "multislice-scheduler.name" . }}-webhook
{{- end }}

{{/* Labels of the objects that stand for the scheduler's pods. */}}
{{- define "multislice-scheduler.labels" -}}
{{ include "multislice-scheduler.selectorLabels" . }}
{{ include "multislice-scheduler.helmLabels" . }}
{{- end }}

{{- define "multislice-scheduler.serviceAccountName" -}}
{{- default (include "multislice-scheduler.fullname" .) .Values.serviceAccount.name }}
{{- end }}

{{- define "multislice-scheduler.leaseName" -}}
{{- default (include "multislice-scheduler.fullname" .) .Values.leaderElection.leaseName }}
{{- end }}

{{- define "multislice-scheduler.leaseNamespace" -}}
{{- default (include "multislice-scheduler.namespace" .) .Values.leaderElection.leaseNamespace }}
{{- end }}

{{/*
The KubeSchedulerConfiguration the scheduler reads (--config).
*/}}
{{- define "multislice-scheduler.schedulerConfig" -}}
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
{{- if .Values.leaderElection.enabled }}
  leaderElect: true
  resourceLock: leases
  resourceName: {{ include "multislice-scheduler.leaseName" . }}
  resourceNamespace: {{ include "multislice-scheduler.leaseNamespace" . }}
{{- else }}
  leaderElect: false
{{- end }}
profiles:
{{- toYaml .Values.profiles | nindent 2 }}
{{- end }}

{{/*
The configuration ConfigMap's data. Its name ends in a hash of it, computed
as kustomize's configMapGenerator does, so that, as with `kubectl apply -k`,
a new configuration is a new ConfigMap and rolls the Deployment: the sha256
of the JSON of kind, name and data, its first 10 hex digits with 0, 1, 3, a
and e replaced by g, h, k, m and t. kustomize looks the name up at a path
it never finds, so the name it hashes is always empty; so is ours.
`make verify-chart` recomputes the hash with kustomize's own code.
*/}}
{{- define "multislice-scheduler.configData" -}}
{{- dict "config.yaml" (printf "%s\n" (include "multislice-scheduler.schedulerConfig" .)) | toJson }}
{{- end }}

{{- define "multislice-scheduler.configMapName" -}}
{{- $data := include "multislice-scheduler.configData" . | fromJson }}
{{- $hash := dict "kind" "ConfigMap" "name" "" "data" $data | toJson | sha256sum | trunc 10 }}
{{- printf "%s-config-%s" (include "multislice-scheduler.fullname" .) ($hash | replace "0" "g" | replace "1" "h" | replace "3" "k" | replace "a" "m" | replace "e" "t") }}
{{- end }}
