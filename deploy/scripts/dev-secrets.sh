#!/usr/bin/env bash
# Creates the local profile's Secret (crewswap-dev-secrets) once, with a fresh ES256 signing pair
# and a random admin password, for a development cluster only. Production secrets are made by
# their owners (deploy/README.md "Install"); the chart never generates any.
set -euo pipefail
NAMESPACE="${NAMESPACE:-$(kubectl config view --minify -o jsonpath='{..namespace}' 2>/dev/null || true)}"
NAMESPACE="${NAMESPACE:-default}"
NAME=crewswap-dev-secrets
if kubectl -n "$NAMESPACE" get secret "$NAME" >/dev/null 2>&1; then
  echo "secret $NAME exists in $NAMESPACE"
  exit 0
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out "$dir/private.pem"
openssl ec -in "$dir/private.pem" -pubout -out "$dir/public.pem" 2>/dev/null
password="$(openssl rand -base64 18)"
kubectl -n "$NAMESPACE" create secret generic "$NAME" \
  --from-file=JWT_PRIVATE_KEY="$dir/private.pem" \
  --from-file=JWT_PUBLIC_KEY="$dir/public.pem" \
  --from-literal=ADMIN_PASSWORD="$password" \
  --from-literal=SMTP_URL="smtp://mailpit:1025"
echo "created $NAME in $NAMESPACE; admin password: $password"
