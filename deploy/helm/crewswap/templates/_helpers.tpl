{{/* The release's name for its resources: "crewswap" when the release is called so, else "<release>-crewswap". */}}
{{- define "crewswap.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "crewswap.labels" -}}
app.kubernetes.io/part-of: crewswap
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/*
  Selector labels of one service's pods: (dict "root" $ "name" "auth"). A Deployment's selector
  is immutable once installed; migration Jobs' pods never carry app.kubernetes.io/name, so nothing
  that selects by it (Services, PDBs, NetworkPolicies) picks them.
*/}}
{{- define "crewswap.selector" -}}
app.kubernetes.io/part-of: crewswap
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/name: {{ .name }}
{{- end -}}

{{/* A service's settings: serviceDefaults overlaid with its own block. (dict "root" $ "name" "auth" "values" $block) */}}
{{- define "crewswap.service" -}}
{{- $merged := mergeOverwrite (deepCopy .root.Values.serviceDefaults) (deepCopy .values) -}}
{{- toYaml $merged -}}
{{- end -}}

{{- define "crewswap.image" -}}
{{- $svc := .svc -}}
{{- $image := $svc.image | default dict -}}
{{- $repository := $image.repository | default (printf "%s%s/%s" (ternary "" (printf "%s/" .root.Values.image.registry) (empty .root.Values.image.registry)) .root.Values.image.prefix .name) -}}
{{- $tag := $image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- if hasPrefix "sha256:" $tag -}}{{ printf "%s@%s" $repository $tag }}{{- else -}}{{ printf "%s:%s" $repository $tag }}{{- end -}}
{{- end -}}

{{- define "crewswap.natsUrl" -}}
{{- .Values.natsUrl | default (printf "%s://%s-nats:4222" (ternary "tls" "nats" .Values.natsTls.enabled) .Release.Name) -}}
{{- end -}}

{{- define "crewswap.cnpgName" -}}
{{- .Values.database.cnpg.name | default (printf "%s-pg" (include "crewswap.fullname" .)) -}}
{{- end -}}

{{/* The object store of database.cnpg.backup, as CloudNativePG's barmanObjectStore (less serverName). */}}
{{- define "crewswap.barmanObjectStore" -}}
{{- with .Values.database.cnpg.backup }}
destinationPath: {{ .destinationPath | quote }}
{{- with .endpointURL }}
endpointURL: {{ . | quote }}
{{- end }}
s3Credentials:
  accessKeyId: { name: {{ .s3Credentials.secretName }}, key: {{ .s3Credentials.accessKeyIdKey }} }
  secretAccessKey: { name: {{ .s3Credentials.secretName }}, key: {{ .s3Credentials.secretAccessKeyKey }} }
wal:
  compression: gzip
data:
  compression: gzip
{{- end }}
{{- end -}}

{{/* DATABASE_URL: the CloudNativePG cluster's app secret, or the key in the chart's Secret. */}}
{{- define "crewswap.databaseUrlEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
{{- if .Values.database.cnpg.enabled }}
      name: {{ include "crewswap.cnpgName" . }}-app
      key: uri
{{- else }}
      name: {{ .Values.secrets.existingSecret }}
      key: DATABASE_URL
{{- end }}
{{- end -}}

{{/* SOME-NAME -> SOME_NAME_URL, the gateway's variable for a service's address. */}}
{{- define "crewswap.urlVar" -}}
{{- printf "%s_URL" (. | upper | replace "-" "_") -}}
{{- end -}}

{{- define "crewswap.natsEgress" -}}
{{- if .Values.nats.enabled }}
- to:
    - podSelector:
        matchLabels:
          app.kubernetes.io/name: nats
          app.kubernetes.io/instance: {{ .Release.Name }}
  ports: [{ port: 4222, protocol: TCP }]
{{- else }}
# NATS outside the chart (natsUrl): its client port, wherever it is.
- ports: [{ port: 4222, protocol: TCP }]
{{- end }}
{{- end -}}

{{- define "crewswap.postgresEgress" -}}
{{- if .Values.database.cnpg.enabled }}
- to:
    - podSelector:
        matchLabels:
          cnpg.io/cluster: {{ include "crewswap.cnpgName" . }}
  ports: [{ port: 5432, protocol: TCP }]
{{- else if .Values.database.externalCidrs }}
- to:
    {{- range .Values.database.externalCidrs }}
    - ipBlock: { cidr: {{ . }} }
    {{- end }}
  ports: [{ port: {{ .Values.database.port }}, protocol: TCP }]
{{- else }}
# External Postgres with no CIDR given: its port, wherever it is (set database.externalCidrs).
- ports: [{ port: {{ .Values.database.port }}, protocol: TCP }]
{{- end }}
{{- end -}}

{{/*
  A Deployment's topologySpreadConstraints: zones first, then nodes (serviceDefaults.topologySpread
  says how hard each is). (dict "root" $ "name" "auth" "svc" $svc). Counted per ReplicaSet
  (pod-template-hash), so a rollout's new pods spread among themselves too.
*/}}
{{- define "crewswap.topologySpread" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- range list (list "topology.kubernetes.io/zone" .svc.topologySpread.zone) (list "kubernetes.io/hostname" .svc.topologySpread.node) }}
- maxSkew: 1
  topologyKey: {{ index . 0 }}
  whenUnsatisfiable: {{ index . 1 }}
  nodeTaintsPolicy: Honor
  labelSelector:
    matchLabels:
      {{- include "crewswap.selector" (dict "root" $root "name" $name) | nindent 6 }}
  matchLabelKeys: [pod-template-hash]
{{- end }}
{{- end -}}
