#!/usr/bin/env bash
# Creates the local profile's Secret (crewswap-dev-secrets) once, with every key a container of
# the chart reads from it (values.yaml `secretEnv`, checked by deploy/test): a fresh ES256 signing
# pair, a VAPID pair for web push, a random admin password and SMTP_URL pointing at the local
# profile's mailpit (deploy/local/mailpit.yaml), for a development cluster only. Production secrets are made by
# their owners (deploy/README.md "Install"); the chart never generates any.
set -euo pipefail
NAMESPACE="${NAMESPACE:-$(kubectl config view --minify -o jsonpath='{..namespace}' 2>/dev/null || true)}"
NAMESPACE="${NAMESPACE:-default}"
NAME=crewswap-dev-secrets
# Each service's NATS user's password (values natsUsers), and the operators' read-only user sre's:
# a Secret of its own, made once.
for service in auth trips swaps admin notifications roster-ingest push-sender realtime links sre; do
  kubectl -n "$NAMESPACE" get secret "crewswap-nats-$service" >/dev/null 2>&1 ||
    kubectl -n "$NAMESPACE" create secret generic "crewswap-nats-$service" --from-literal=password="$(openssl rand -base64 24)"
done
if kubectl -n "$NAMESPACE" get secret "$NAME" >/dev/null 2>&1; then
  echo "secret $NAME exists in $NAMESPACE"
  exit 0
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out "$dir/private.pem"
openssl ec -in "$dir/private.pem" -pubout -out "$dir/public.pem" 2>/dev/null
# VAPID keys as web-push wants them: the P-256 public point (65 bytes) and private scalar (32
# bytes), base64url. In the key's DER form (SEC1, 121 bytes) the scalar is bytes 8-39 and the
# point the last 65.
openssl ecparam -name prime256v1 -genkey -noout -outform DER -out "$dir/vapid.der"
base64url() { base64 | tr -d '\n=' | tr '+/' '-_'; }
vapid_private="$(head -c 39 "$dir/vapid.der" | tail -c 32 | base64url)"
vapid_public="$(tail -c 65 "$dir/vapid.der" | base64url)"
password="$(openssl rand -base64 18)"
kubectl -n "$NAMESPACE" create secret generic "$NAME" \
  --from-file=JWT_PRIVATE_KEY="$dir/private.pem" \
  --from-file=JWT_PUBLIC_KEY="$dir/public.pem" \
  --from-literal=ADMIN_PASSWORD="$password" \
  --from-literal=VAPID_PUBLIC_KEY="$vapid_public" \
  --from-literal=VAPID_PRIVATE_KEY="$vapid_private" \
  --from-literal=SMTP_URL="smtp://mailpit:1025"
echo "created $NAME in $NAMESPACE; admin password: $password"
