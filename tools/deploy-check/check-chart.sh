#!/usr/bin/env bash
# Deployment files, checked offline: the Helm chart (lint, render for the default, sandbox and
# production values, every object validated against the Kubernetes schemas, refusals that must
# happen) and docker-compose.yml (the compose JSON schema and our own rules).
# Idempotent; needs Go (to build helm and the strict decoder once, cached) and `npm ci` done. Appends its totals to
# tmp/test-summary.jsonl like the jest runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/go/bin" # where the machine's Go lives when a login shell did not add it
export HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}" # go's module cache and our tool cache

HELM_VERSION=v3.21.4
HELM_DIR="${ONRAMP_TOOLS_DIR:-$HOME/.cache/onramp-tools}/helm-$HELM_VERSION/bin"
HELM="$HELM_DIR/helm"
KUBE_VERSION=1.31.0
CHART=helm/onramp
OUT=tmp/deploy-check
# Any valid address: the default values deliberately have none (the chart refuses until it is set).
TEST_USDC=0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d

# helm from source, once: `go install` into a versioned cache directory (a few minutes the first time).
if [ ! -x "$HELM" ]; then
  command -v go > /dev/null || { echo "go is required to build helm $HELM_VERSION" >&2; exit 1; }
  echo "building helm $HELM_VERSION from source into $HELM_DIR (first run only)"
  mkdir -p "$HELM_DIR"
  # built beside its final place, then renamed: an interrupted build never leaves a half binary
  tmpbin="$(mktemp -d "$HELM_DIR/../build.XXXXXX")"
  GOBIN="$tmpbin" GOFLAGS=-mod=mod go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
  mv "$tmpbin/helm" "$HELM"
  rmdir "$tmpbin"
fi

# The strict decoder (tools/deploy-check/strict-decode): built once per source version, cached.
TOOLS_DIR="${ONRAMP_TOOLS_DIR:-$HOME/.cache/onramp-tools}"
STRICT_SRC=tools/deploy-check/strict-decode
STRICT="$TOOLS_DIR/strict-decode-$(cat "$STRICT_SRC"/go.mod "$STRICT_SRC"/go.sum "$STRICT_SRC"/main.go | sha256sum | cut -c1-16)"
if [ ! -x "$STRICT" ]; then
  mkdir -p "$TOOLS_DIR"
  (cd "$STRICT_SRC" && GOFLAGS=-mod=mod go build -o "$STRICT.tmp" . && mv "$STRICT.tmp" "$STRICT")
fi

rm -rf "$OUT" && mkdir -p "$OUT"
passed=0
failed=0
ok() { passed=$((passed + 1)); printf '  ok   %s\n' "$1"; }
ko() { failed=$((failed + 1)); printf '  FAIL %s\n' "$1"; }

render() { # name, helm template args...
  local name="$1"
  shift
  "$HELM" template onramp "$CHART" --namespace onramp --kube-version "$KUBE_VERSION" "$@" > "$OUT/$name.yaml" 2> "$OUT/$name.err"
}

# must_render NAME ARGS...: lint + template succeed and every object validates
must_render() {
  local name="$1"
  shift
  if "$HELM" lint "$CHART" --strict --kube-version "$KUBE_VERSION" "$@" > "$OUT/$name.lint" 2>&1; then
    ok "helm lint --strict ($name)"
  else
    ko "helm lint --strict ($name)"
    cat "$OUT/$name.lint"
  fi
  if render "$name" "$@"; then
    ok "helm template ($name)"
    if node tools/deploy-check/validate-k8s.mjs "$OUT/$name.yaml"; then ok "objects valid ($name)"; else ko "objects valid ($name)"; fi
    if "$STRICT" "$OUT/$name.yaml"; then ok "no unknown fields ($name)"; else ko "no unknown fields ($name)"; fi
  else
    ko "helm template ($name)"
    cat "$OUT/$name.err"
  fi
}

# must_refuse NAME PATTERN ARGS...: template fails and says PATTERN
must_refuse() {
  local name="$1" pattern="$2"
  shift 2
  if render "$name" "$@"; then
    ko "refused: $name (it rendered)"
  elif grep -qE "$pattern" "$OUT/$name.err"; then
    ok "refused: $name"
  else
    ko "refused: $name (wrong message)"
    cat "$OUT/$name.err"
  fi
}

echo "helm: $("$HELM" version --short 2>/dev/null || echo "$HELM_VERSION")"
must_refuse default-without-usdc 'chain.usdcAddress is not set'
must_render default --set "chain.usdcAddress=$TEST_USDC"
must_render sandbox -f helm/examples/values-sandbox.yaml
must_render production -f helm/examples/values-production.yaml
must_render production-mutual-tls -f helm/examples/values-production.yaml \
  --set kafka.sasl.mechanism= --set kafka.tls.clientSecret.name=onramp-kafka-user

must_refuse sandbox-on-arbitrum-one 'mode: sandbox with chain.chainId 42161 \(Arbitrum One\), a network with real money' \
  -f helm/examples/values-sandbox.yaml --set chain.chainId=42161
must_refuse sandbox-on-ethereum 'chain.chainId 1 \(Ethereum\)' --set "chain.usdcAddress=$TEST_USDC" --set chain.chainId=1
must_refuse unknown-values-key "additional properties 'replica' not allowed|additionalProperties 'replica' not allowed" \
  -f helm/examples/values-sandbox.yaml --set apps.gateway.replica=3
must_refuse unknown-top-level-key "additional properties 'ingres' not allowed|additionalProperties 'ingres' not allowed" \
  -f helm/examples/values-sandbox.yaml --set ingres.enabled=false
must_refuse undocumented-env-variable 'SETTLEMENT_SIGNER_KEY' \
  -f helm/examples/values-sandbox.yaml --set apps.chain-settlement.env.SETTLEMENT_SIGNER_KEY=0xabc
must_refuse production-with-test-iban 'COLLECTION_IBAN' \
  -f helm/examples/values-production.yaml --set apps.orders.env.COLLECTION_IBAN=DE89370400440532013000
must_refuse more-settlement-replicas-than-keys 'signerKeys.count is 3' \
  -f helm/examples/values-production.yaml --set apps.chain-settlement.keda.maxReplicas=4
must_refuse connection-budget 'database.maxConnections is 50' \
  -f helm/examples/values-production.yaml --set database.maxConnections=50

# Every key of values.yaml changes the output for at least one of these bases (nothing is decorative).
if node tools/deploy-check/values-read.mjs "$HELM" "$CHART" "$KUBE_VERSION" \
  -- --set "chain.usdcAddress=$TEST_USDC" \
  -- -f helm/examples/values-production.yaml \
  -- -f helm/examples/values-sandbox.yaml --set kafka.tls.enabled=true --set kafka.tls.clientSecret.name=onramp-kafka-user; then
  ok "every values key is read"
else
  ko "every values key is read"
fi

if node tools/deploy-check/validate-compose.mjs docker-compose.yml; then ok "docker-compose.yml valid"; else ko "docker-compose.yml valid"; fi

# Every command the chart and compose run must exist in the build (CI builds dist/ before this step).
if [ -d dist ]; then
  missing=""
  for path in $(cat "$OUT"/*.yaml docker-compose.yml | grep -oE 'dist/(apps|tools)/[a-z-]+/main\.js' | sort -u); do
    [ -f "$path" ] || missing="$missing $path"
  done
  if [ -z "$missing" ]; then ok "commands exist in dist/"; else ko "commands exist in dist/ (missing:$missing)"; fi
else
  echo "  note: no dist/ (run npm run build): command paths not checked"
fi

mkdir -p tmp
printf '{"passed":%d,"failed":%d,"skipped":0}\n' "$passed" "$failed" >> tmp/test-summary.jsonl
echo "deploy-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
