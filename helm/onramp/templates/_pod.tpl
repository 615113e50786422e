{{/*
The pod of one app (Deployment or, for chain-settlement, StatefulSet). Variables: the app's ConfigMap,
the keys of its own Secret named one by one (never envFrom: a key added to the Secret later does not
leak into the process), Kafka's connection settings, then apps.<app>.extraEnv.
*/}}
{{- define "onramp.podTemplate" -}}
{{- $root := index . 0 -}}
{{- $name := index . 1 -}}
{{- $app := index $root.Values.apps $name -}}
{{- $t := index (include "onramp.apps" $root | fromYaml) $name -}}
metadata:
  labels:
    {{- include "onramp.appLabels" (list $root $name) | nindent 4 }}
  annotations:
    checksum/config: {{ include "onramp.configData" (list $root $name) | sha256sum }}
    {{- with $app.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  serviceAccountName: {{ include "onramp.appFullname" (list $root $name) }}
  automountServiceAccountToken: false
  enableServiceLinks: false
  {{- with $root.Values.image.pullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ . }}
    {{- end }}
  {{- end }}
  securityContext:
    {{- include "onramp.podSecurityContext" $root | nindent 4 }}
  # Long enough to finish in-flight requests and commit consumer offsets after SIGTERM.
  terminationGracePeriodSeconds: 45
  {{- with (include "onramp.placement" $app | trim) }}{{ . | nindent 2 }}{{- end }}
  containers:
    - name: {{ $name }}
      image: {{ include "onramp.image" $root | quote }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      {{- if eq $name "chain-settlement" }}
      command:
        {{- include "onramp.command.chainSettlement" $root | nindent 8 }}
      {{- else }}
      command: {{ include "onramp.command.app" $name }}
      {{- end }}
      securityContext:
        {{- include "onramp.containerSecurityContext" $root | nindent 8 }}
      ports:
        - name: http
          containerPort: {{ $t.port }}
          protocol: TCP
        {{- if eq $name "gateway" }}
        - name: kyc
          containerPort: 3001
          protocol: TCP
        {{- end }}
      envFrom:
        - configMapRef:
            name: {{ include "onramp.appFullname" (list $root $name) }}
      env:
        {{- if $app.existingSecret }}
        {{- range $t.secretKeys }}
        - name: {{ .name }}
          valueFrom:
            secretKeyRef:
              name: {{ $app.existingSecret }}
              key: {{ .name }}
              {{- if .optional }}
              optional: true
              {{- end }}
        {{- end }}
        {{- end }}
        {{- if $t.kafka }}
        {{- include "onramp.kafkaEnv" $root | nindent 8 }}
        {{- end }}
        {{- if eq $name "chain-settlement" }}
        - name: POD_INDEX
          valueFrom:
            fieldRef:
              fieldPath: metadata.labels['apps.kubernetes.io/pod-index']
        {{- end }}
        {{- with $app.extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      # Started: the process listens (a production pod first waits up to database.schemaWaitSeconds
      # for the migrate step and kafka.topicsWaitSeconds for its topics, so allow 6 minutes).
      startupProbe:
        httpGet: { path: /health, port: http }
        periodSeconds: 5
        timeoutSeconds: 3
        failureThreshold: 72
      # Ready: database reachable and the consumer group joined (services); the gateway: listening.
      readinessProbe:
        httpGet: { path: {{ $t.ready }}, port: http }
        periodSeconds: 10
        timeoutSeconds: 3
        failureThreshold: 3
      # Alive: the event loop answers. Never the database: an outage must not restart every pod.
      livenessProbe:
        httpGet: { path: /health, port: http }
        periodSeconds: 15
        timeoutSeconds: 5
        failureThreshold: 4
      resources:
        {{- toYaml $app.resources | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        {{- if $t.kafka }}
        {{- with (include "onramp.kafkaVolumeMounts" $root | trim) }}{{ . | nindent 8 }}{{- end }}
        {{- end }}
        {{- if eq $name "chain-settlement" }}
        - name: signer
          mountPath: /etc/onramp/signer
          readOnly: true
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: 64Mi
    {{- if $t.kafka }}
    {{- with (include "onramp.kafkaVolumes" $root | trim) }}{{ . | nindent 4 }}{{- end }}
    {{- end }}
    {{- if eq $name "chain-settlement" }}
    - name: signer
      secret:
        secretName: {{ $root.Values.chainSettlement.signerKeys.existingSecret }}
        defaultMode: 0440
    {{- end }}
{{- end -}}
