{{/*
Names. Kubernetes names are at most 63 characters (DNS labels); every name built here is truncated to
that and loses a trailing "-" left by the cut.
*/}}
{{- define "onramp.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "onramp.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one app's objects: <fullname>-<app>, cut so that the app's suffix always survives. */}}
{{- define "onramp.appFullname" -}}
{{- $root := index . 0 -}}
{{- $app := index . 1 -}}
{{- $max := sub 62 (len $app) | int -}}
{{- printf "%s-%s" (include "onramp.fullname" $root | trunc $max | trimSuffix "-") $app -}}
{{- end -}}

{{- define "onramp.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels every object carries (the standard app.kubernetes.io set). */}}
{{- define "onramp.labels" -}}
helm.sh/chart: {{ include "onramp.chart" . }}
app.kubernetes.io/name: {{ include "onramp.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: onramp
{{- end -}}

{{/* Selector labels of one app (component = the app's name); never change them: selectors are immutable. */}}
{{- define "onramp.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "onramp.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "onramp.appLabels" -}}
{{ include "onramp.labels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "onramp.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/*
What each app is. The one place that knows ports, probes, secrets and peers of every app, read by every
template. Ports and variables are the apps' own (apps/<app>/src/config.ts); the commands are the
compiled build's (node dist/apps/<app>/main.js, node dist/tools/...): change them here only.
  port/portEnv   the HTTP listener and the variable that sets it
  ready          readiness path (/health/ready checks the database and the consumer group;
                 the gateway has neither, so /health)
  secretKeys     keys read from the app's existingSecret (each becomes the variable of the same name;
                 optional ones may be missing from the Secret). The gateway's Secret is optional
                 (without it the admin API answers 503). METRICS_TOKEN: the bearer token /metrics needs.
  jwks           verifies merchant tokens with the auth service's JWKS (GET /.well-known/jwks.json)
  kafka, db      talks to Kafka / owns a schema
*/}}
{{- define "onramp.apps" -}}
gateway:
  port: 3000
  portEnv: BASE_PORT
  ready: /health
  db: false
  kafka: false
  jwks: false
  secretKeys:
    - { name: ADMIN_API_KEY, optional: true }
    - { name: OPERATOR_KEYS, optional: true }
    - { name: SERVICE_SECRET, optional: true }
    - { name: METRICS_TOKEN, optional: true }
auth:
  port: 3010
  portEnv: AUTH_PORT
  ready: /health/ready
  db: true
  kafka: false  # auth neither produces nor consumes events
  jwks: false
  schema: auth
  secretKeys:
    - { name: DATABASE_URL }
    - { name: AUTH_KEY_ENCRYPTION_KEY }
    - { name: AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS, optional: true }
    - { name: SERVICE_CALLERS, optional: true }
    - { name: METRICS_TOKEN, optional: true }
kyc:
  port: 3011
  portEnv: KYC_SERVICE_PORT
  ready: /health/ready
  db: true
  kafka: true
  jwks: true
  schema: kyc
  secretKeys:
    - { name: DATABASE_URL }
    - { name: KYC_ENCRYPTION_KEY }
    - { name: KYC_PREVIOUS_ENCRYPTION_KEYS, optional: true }
    - { name: PAYER_DATA_ENCRYPTION_KEY }
    - { name: PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS, optional: true }
    - { name: SERVICE_CALLERS, optional: true }
    - { name: METRICS_TOKEN, optional: true }
orders:
  port: 3012
  portEnv: ORDERS_PORT
  ready: /health/ready
  db: true
  kafka: true
  jwks: true
  schema: orders
  secretKeys:
    - { name: DATABASE_URL }
    - { name: SERVICE_SECRET, optional: true }
    - { name: SERVICE_CALLERS, optional: true }
    - { name: METRICS_TOKEN, optional: true }
payment-ingest:
  port: 3013
  portEnv: PAYMENT_INGEST_PORT
  ready: /health/ready
  db: true
  kafka: true
  jwks: true
  schema: payments
  secretKeys:
    - { name: DATABASE_URL }
    - { name: PAYER_DATA_ENCRYPTION_KEY }
    - { name: PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS, optional: true }
    - { name: SERVICE_CALLERS, optional: true }
    - { name: METRICS_TOKEN, optional: true }
chain-settlement:
  port: 3014
  portEnv: CHAIN_SETTLEMENT_PORT
  ready: /health/ready
  db: true
  kafka: true
  jwks: false
  metrics: /metrics
  schema: settlement
  secretKeys:
    - { name: DATABASE_URL }
    - { name: SERVICE_CALLERS, optional: true }
    - { name: METRICS_TOKEN, optional: true }
    - { name: SETTLEMENT_SIGNER_AUTHORIZATION, optional: true }
webhook-dispatch:
  port: 3015
  portEnv: WEBHOOK_DISPATCH_PORT
  ready: /health/ready
  db: true
  kafka: true
  jwks: true
  schema: webhooks
  secretKeys:
    - { name: DATABASE_URL }
    - { name: WEBHOOK_SECRET_ENCRYPTION_KEY }
    - { name: WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS, optional: true }
    - { name: PAYER_DATA_ENCRYPTION_KEY }
    - { name: PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS, optional: true }
    - { name: SERVICE_CALLERS, optional: true }
    - { name: METRICS_TOKEN, optional: true }
{{- end -}}

{{/* The container command of an app or a step, from the compiled build (WORKDIR /srv/onramp). */}}
{{- define "onramp.command.app" -}}
["node", "dist/apps/{{ . }}/main.js"]
{{- end -}}
{{- define "onramp.command.migrate" -}}
["node", "dist/tools/migrate/main.js", {{ . | quote }}]
{{- end -}}
{{- define "onramp.command.kafkaTopics" -}}
["node", "dist/tools/kafka-topics/main.js"]
{{- end -}}

{{/*
chain-settlement: each StatefulSet pod takes the signer key named after its ordinal (signer-0,
signer-1, ...) from the mounted signer Secret, so two replicas never share a hot wallet (and its
nonces). The key reaches the process as SETTLEMENT_SIGNER_KEY, a pool of one: the process holds its
lease (settlement.signer_leases) while it runs. With chainSettlement.signerKeys.sharedPool every pod
gets all count keys as SETTLEMENT_SIGNER_KEYS, its own first (signer-N, signer-N+1, ... wrapping), so
pod N still signs with signer-N, and a replica without a free key of its own waits as a spare and
takes over the key of a replica that stopped renewing its lease.
With a remote signer (apps.chain-settlement.env.SETTLEMENT_SIGNER_URL) the Secret holds no keys but
the address each pod signs for (address-0, address-1, ...), exported as SETTLEMENT_SIGNER_ADDRESS.
*/}}
{{- define "onramp.command.chainSettlement" -}}
- /bin/sh
- -c
- |
  i="${POD_INDEX:-${HOSTNAME##*-}}"
  if [ -n "${SETTLEMENT_SIGNER_URL:-}" ]; then
    f="/etc/onramp/signer/address-${i}"
    if [ ! -s "$f" ]; then
      echo "chain-settlement: no signer address address-${i} in the signer Secret: add one address per replica (address-0 ... address-N)" >&2
      exit 1
    fi
    SETTLEMENT_SIGNER_ADDRESS="$(cat "$f")"
    export SETTLEMENT_SIGNER_ADDRESS
  elif [ "{{ .Values.chainSettlement.signerKeys.sharedPool | default false }}" = "true" ]; then
    n={{ int .Values.chainSettlement.signerKeys.count }}
    keys=""
    j=0
    while [ "$j" -lt "$n" ]; do
      f="/etc/onramp/signer/signer-$(( (i + j) % n ))"
      if [ ! -s "$f" ]; then
        echo "chain-settlement: no signer key signer-$(( (i + j) % n )) in the signer Secret: add count keys (signer-0 ... signer-N)" >&2
        exit 1
      fi
      keys="${keys:+$keys,}$(cat "$f")"
      j=$((j + 1))
    done
    SETTLEMENT_SIGNER_KEYS="$keys"
    export SETTLEMENT_SIGNER_KEYS
  else
    f="/etc/onramp/signer/signer-${i}"
    if [ ! -s "$f" ]; then
      echo "chain-settlement: no signer key signer-${i} in the signer Secret: add one key per replica (signer-0 ... signer-N)" >&2
      exit 1
    fi
    SETTLEMENT_SIGNER_KEY="$(cat "$f")"
    export SETTLEMENT_SIGNER_KEY
  fi
  exec node dist/apps/chain-settlement/main.js
{{- end -}}

{{/* The most replicas an app can reach (HPA or KEDA maximum, else its replica count): the connection budget uses it. */}}
{{- define "onramp.maxReplicas" -}}
{{- $root := index . 0 -}}
{{- $name := index . 1 -}}
{{- $app := index $root.Values.apps $name -}}
{{- $max := int $app.replicas -}}
{{- if and (hasKey $app "hpa") $app.hpa.enabled -}}{{- $max = int $app.hpa.maxReplicas -}}{{- end -}}
{{- if and (hasKey $app "keda") $app.keda.enabled -}}{{- $max = int $app.keda.maxReplicas -}}{{- end -}}
{{- $max -}}
{{- end -}}

{{/*
Chain ids where tokens are worth money: sandbox mode (fake bank credits from anyone) must never be
installed against one. The same list as REAL_MONEY_CHAINS in libs/shared/config/src/chain-networks.ts
(a unit test keeps both equal); the app refuses too, this fails the install before anything starts.
*/}}
{{- define "onramp.realMoneyChains" -}}
1: Ethereum
10: OP Mainnet
25: Cronos
56: BNB Smart Chain
100: Gnosis
130: Unichain
137: Polygon PoS
146: Sonic
250: Fantom Opera
324: zkSync Era
480: World Chain
1101: Polygon zkEVM
1284: Moonbeam
2222: Kava
5000: Mantle
8217: Kaia
8453: Base
34443: Mode
42161: Arbitrum One
42170: Arbitrum Nova
42220: Celo
43114: Avalanche C-Chain
59144: Linea
81457: Blast
534352: Scroll
7777777: Zora
{{- end -}}

{{/* Refusals checked before anything renders: each says what is wrong and which value fixes it. */}}
{{- define "onramp.validate" -}}
{{- $chains := include "onramp.realMoneyChains" . | fromYaml -}}
{{- $chainId := toString (int64 .Values.chain.chainId) -}}
{{- if and (eq .Values.mode "sandbox") (hasKey $chains $chainId) -}}
{{- fail (printf "\n\nmode: sandbox with chain.chainId %s (%s), a network with real money: the sandbox bank accepts fake EUR credits from any merchant and chain-settlement would pay them in real USDC. Use a testnet (e.g. chain.chainId 421614, Arbitrum Sepolia) or mode: production." $chainId (index $chains $chainId)) -}}
{{- end -}}
{{- if or (not .Values.chain.usdcAddress) (eq (lower .Values.chain.usdcAddress) "0x0000000000000000000000000000000000000000") -}}
{{- fail "\n\nchain.usdcAddress is not set: set the address of the USDC token on chain.chainId (in sandbox, a test token your hot wallets hold)." -}}
{{- end -}}
{{- if eq .Values.mode "production" -}}
{{- $iban := index .Values.apps.orders.env "COLLECTION_IBAN" | default "" -}}
{{- if or (not $iban) (eq $iban "DE89370400440532013000") -}}
{{- fail "\n\nmode: production needs apps.orders.env.COLLECTION_IBAN: the IBAN end users pay into (not the public test IBAN)." -}}
{{- end -}}
{{- if not (index .Values.apps.orders.env "COLLECTION_BIC") -}}
{{- fail "\n\nmode: production needs apps.orders.env.COLLECTION_BIC." -}}
{{- end -}}
{{- if not .Values.chain.rpcUrl -}}
{{- fail "\n\nmode: production needs chain.rpcUrl." -}}
{{- end -}}
{{- end -}}
{{- $keys := int .Values.chainSettlement.signerKeys.count -}}
{{- $max := include "onramp.maxReplicas" (list . "chain-settlement") | int -}}
{{- /* with a shared pool, replicas beyond count are spares that take over a dead replica's key */ -}}
{{- if and (gt $max $keys) (not .Values.chainSettlement.signerKeys.sharedPool) -}}
{{- fail (printf "\n\nchain-settlement can reach %d replicas but chainSettlement.signerKeys.count is %d: every replica needs its own signer key (signer-0 ... signer-%d in the Secret %s)." $max $keys (sub $max 1) .Values.chainSettlement.signerKeys.existingSecret) -}}
{{- end -}}
{{- range $name, $app := .Values.apps -}}
{{- if and (ne $name "gateway") (not $app.existingSecret) -}}
{{- fail (printf "\n\napps.%s.existingSecret is empty: name the Secret holding this app's DATABASE_URL and keys (see the chart README)." $name) -}}
{{- end -}}
{{- end -}}
{{- if and .Values.database.maxConnections (gt (include "onramp.connectionBudget" . | int) (int .Values.database.maxConnections)) -}}
{{- fail (printf "\n\nthe apps may open %s database connections (pool size x most replicas, +1 each for migrations and probes) but database.maxConnections is %d: lower apps.<app>.database.poolSize or replica maximums, or raise max_connections on the server and database.maxConnections here." (include "onramp.connectionBudget" .) (int .Values.database.maxConnections)) -}}
{{- end -}}
{{- end -}}

{{/* Sum over apps of (pool size + 1) x most replicas: the connections the platform may hold at once. */}}
{{- define "onramp.connectionBudget" -}}
{{- $root := . -}}
{{- $total := 0 -}}
{{- range $name, $app := .Values.apps -}}
{{- if hasKey $app "database" -}}
{{- $max := include "onramp.maxReplicas" (list $root $name) | int -}}
{{- $total = add $total (mul $max (add 1 (int $app.database.poolSize))) -}}
{{- end -}}
{{- end -}}
{{- $total -}}
{{- end -}}

{{/* Pod security: non-root numeric user, nothing writable but /tmp, no capabilities, default seccomp. */}}
{{- define "onramp.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "onramp.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
privileged: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Kafka connection variables every Kafka client gets (apps and the topics Job). */}}
{{- define "onramp.kafkaEnv" -}}
- name: KAFKA_BROKERS
  value: {{ .Values.kafka.brokers | quote }}
- name: KAFKA_PARTITIONS
  value: {{ .Values.kafka.partitions | quote }}
- name: KAFKA_REPLICATION_FACTOR
  value: {{ .Values.kafka.replicationFactor | quote }}
{{- if .Values.kafka.sasl.mechanism }}
- name: KAFKA_SASL_MECHANISM
  value: {{ .Values.kafka.sasl.mechanism | quote }}
- name: KAFKA_SASL_USERNAME
  value: {{ required "kafka.sasl.username is required with kafka.sasl.mechanism" .Values.kafka.sasl.username | quote }}
- name: KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ required "kafka.sasl.existingSecret is required with kafka.sasl.mechanism" .Values.kafka.sasl.existingSecret }}
      key: {{ .Values.kafka.sasl.passwordKey }}
{{- end }}
- name: KAFKA_SSL
  value: {{ .Values.kafka.tls.enabled | quote }}
{{- if and .Values.kafka.tls.enabled .Values.kafka.tls.caSecret.name }}
- name: KAFKA_SSL_CA_FILE
  value: /etc/onramp/kafka-ca/{{ .Values.kafka.tls.caSecret.key }}
{{- end }}
{{- if and .Values.kafka.tls.enabled .Values.kafka.tls.clientSecret.name }}
- name: KAFKA_SSL_CERT_FILE
  value: /etc/onramp/kafka-client/{{ .Values.kafka.tls.clientSecret.certKey }}
- name: KAFKA_SSL_KEY_FILE
  value: /etc/onramp/kafka-client/{{ .Values.kafka.tls.clientSecret.keyKey }}
{{- end }}
{{- end -}}

{{- define "onramp.kafkaVolumeMounts" -}}
{{- if and .Values.kafka.tls.enabled .Values.kafka.tls.caSecret.name }}
- name: kafka-ca
  mountPath: /etc/onramp/kafka-ca
  readOnly: true
{{- end }}
{{- if and .Values.kafka.tls.enabled .Values.kafka.tls.clientSecret.name }}
- name: kafka-client
  mountPath: /etc/onramp/kafka-client
  readOnly: true
{{- end }}
{{- end -}}

{{- define "onramp.kafkaVolumes" -}}
{{- if and .Values.kafka.tls.enabled .Values.kafka.tls.caSecret.name }}
- name: kafka-ca
  secret:
    secretName: {{ .Values.kafka.tls.caSecret.name }}
    items:
      - key: {{ .Values.kafka.tls.caSecret.key }}
        path: {{ .Values.kafka.tls.caSecret.key }}
{{- end }}
{{- if and .Values.kafka.tls.enabled .Values.kafka.tls.clientSecret.name }}
- name: kafka-client
  secret:
    secretName: {{ .Values.kafka.tls.clientSecret.name }}
    defaultMode: 0440
    items:
      - key: {{ .Values.kafka.tls.clientSecret.certKey }}
        path: {{ .Values.kafka.tls.clientSecret.certKey }}
      - key: {{ .Values.kafka.tls.clientSecret.keyKey }}
        path: {{ .Values.kafka.tls.clientSecret.keyKey }}
{{- end }}
{{- end -}}

{{/* Pod placement passed through as given. */}}
{{- define "onramp.placement" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* One egress rule from a {to, ports} value (no ports: every port). */}}
{{- define "onramp.egressRule" -}}
- to:
    {{- toYaml .to | nindent 4 }}
  {{- with .ports }}
  ports:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
