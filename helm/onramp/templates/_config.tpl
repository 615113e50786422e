{{/* The ConfigMap data of one app: the chart's wiring first, then apps.<app>.env (which wins). */}}
{{- define "onramp.configData" -}}
{{- $root := index . 0 -}}
{{- $name := index . 1 -}}
{{- $app := index $root.Values.apps $name -}}
{{- $t := index (include "onramp.apps" $root | fromYaml) $name -}}
{{- $env := dict "ONRAMP_MODE" $root.Values.mode "NODE_ENV" "production" "LOG_LEVEL" $root.Values.logLevel "HOST" "0.0.0.0" }}
{{- $_ := set $env $t.portEnv (toString $t.port) }}
{{- if eq $name "gateway" }}
{{- $_ := set $env "GATEWAY_HOST" "0.0.0.0" }}
{{- $_ := set $env "KYC_PORT" "3001" }}
{{- $_ := set $env "ADMIN_PORT" "3002" }}
{{- $_ := set $env "AUTH_URL" (printf "http://%s:3010" (include "onramp.appFullname" (list $root "auth"))) }}
{{- $_ := set $env "KYC_SERVICE_URL" (printf "http://%s:3011" (include "onramp.appFullname" (list $root "kyc"))) }}
{{- $_ := set $env "ORDERS_URL" (printf "http://%s:3012" (include "onramp.appFullname" (list $root "orders"))) }}
{{- $_ := set $env "PAYMENT_INGEST_URL" (printf "http://%s:3013" (include "onramp.appFullname" (list $root "payment-ingest"))) }}
{{- $_ := set $env "CHAIN_SETTLEMENT_URL" (printf "http://%s:3014" (include "onramp.appFullname" (list $root "chain-settlement"))) }}
{{- $_ := set $env "WEBHOOK_DISPATCH_URL" (printf "http://%s:3015" (include "onramp.appFullname" (list $root "webhook-dispatch"))) }}
{{- end }}
{{- if or $t.jwks (eq $name "auth") }}
{{- $_ := set $env "JWT_ISSUER" $root.Values.jwt.issuer }}
{{- $_ := set $env "JWT_AUDIENCE" $root.Values.jwt.audience }}
{{- end }}
{{- if $t.jwks }}
{{- $_ := set $env "AUTH_URL" (printf "http://%s:3010" (include "onramp.appFullname" (list $root "auth"))) }}
{{- end }}
{{- if eq $name "orders" }}
{{- $_ := set $env "KYC_SERVICE_URL" (printf "http://%s:3011" (include "onramp.appFullname" (list $root "kyc"))) }}
{{- end }}
{{- if $t.db }}
{{- $_ := set $env "DB_POOL_SIZE" (toString $app.database.poolSize) }}
{{- $_ := set $env "DB_SCHEMA_WAIT_SECONDS" (toString $root.Values.database.schemaWaitSeconds) }}
{{- $_ := set $env "DB_PREPARED_STATEMENTS" (ternary "true" "false" (ne $root.Values.database.preparedStatements false)) }}
{{- $_ := set $env "DB_MIGRATE_AT_BOOT" (ternary "false" "true" $root.Values.database.migrations.enabled) }}
{{- end }}
{{- if $t.kafka }}
{{- $_ := set $env "EVENT_TRANSPORT" "kafka" }}
{{- $_ := set $env "KAFKA_SESSION_TIMEOUT_MS" (toString $root.Values.kafka.sessionTimeoutMs) }}
{{- $_ := set $env "KAFKA_COMMIT_INTERVAL_MS" (toString $root.Values.kafka.commitIntervalMs) }}
{{- $_ := set $env "KAFKA_TOPICS_WAIT_SECONDS" (toString $root.Values.kafka.topicsWaitSeconds) }}
{{- $_ := set $env "KAFKA_CREATE_TOPICS" (ternary "false" "true" (or $root.Values.kafka.topics.job.enabled $root.Values.kafka.topics.strimzi.enabled)) }}
{{- end }}
{{- if eq $name "chain-settlement" }}
{{- $_ := set $env "CHAIN_ID" (toString (int64 $root.Values.chain.chainId)) }}
{{- $_ := set $env "RPC_URL" $root.Values.chain.rpcUrl }}
{{- $_ := set $env "USDC_ADDRESS" $root.Values.chain.usdcAddress }}
{{- $_ := set $env "CHAIN_CONFIRMATIONS" (toString $root.Values.chain.confirmations) }}
{{- if $root.Values.chain.sandboxTestnet }}
{{- $_ := set $env "SANDBOX_TESTNET" $root.Values.chain.sandboxTestnet }}
{{- end }}
{{- end }}
{{- range $k, $v := $app.env }}
{{- $_ := set $env $k (toString $v) }}
{{- end }}
{{- range $k := keys $env | sortAlpha }}
{{ $k }}: {{ index $env $k | quote }}
{{- end }}
{{- end -}}
