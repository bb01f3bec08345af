# The two commands a newcomer needs: `make up` and `make test`. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help
# Not npm ci: the registry reachable here lacks other platforms' optional binaries that npm ci insists on.
NPM_INSTALL := npm install --no-audit --no-fund

.PHONY: help install infra build build-services images up test test-services test-web test-e2e typecheck bench load lighthouse clean backup restore

help:
	@echo "make up     install, start Postgres and NATS if needed, build, migrate, seed and run everything at http://localhost:8080"
	@echo "make test   run every test (services, web components, end-to-end in Chromium)"

node_modules/.installed: package.json package-lock.json $(wildcard */package.json services/*/package.json)
	@$(NPM_INSTALL)
	@touch $@

install: node_modules/.installed

infra:
	@bash scripts/ensure-infra.sh

build: install
	@npm run build -w @crewswap/web

up: install infra build
	@node --import tsx scripts/stack.ts

# Plain JavaScript bundles of every service (what the images run), in services/<name>/dist.
build-services: install
	@node --import tsx scripts/build-services.ts

# One image per service folder with a src/main.ts (deploy/README.md). Needs a Docker engine.
IMAGE_PREFIX ?= crewswap
IMAGE_TAG ?= dev
images:
	@docker info >/dev/null 2>&1 || { echo "make images needs a running Docker engine (docker info failed); see deploy/README.md"; exit 1; }
	@for main in services/*/src/main.ts; do \
	  name=$${main#services/}; name=$${name%%/*}; target=service; [ "$$name" = gateway ] && target=gateway; \
	  echo "building $(IMAGE_PREFIX)/$$name:$(IMAGE_TAG)"; \
	  docker build -f services/Dockerfile --target $$target --build-arg SERVICE=$$name -t $(IMAGE_PREFIX)/$$name:$(IMAGE_TAG) . || exit 1; \
	done

typecheck: install
	@npx tsc -p tsconfig.json
	@npm run typecheck -w @crewswap/web --silent

test-services: install infra
	@npx jest --config jest.config.cjs

test-web: install
	@npm test -w @crewswap/web

# The browser journeys run against two processes of every service (README, REPLICAS), so what only
# a second replica breaks fails here and in CI, once: E2E_REPLICAS=1 runs them against one.
E2E_REPLICAS ?= 2
test-e2e: install infra build
	@bash scripts/ensure-chromium.sh
	@REPLICAS=$(E2E_REPLICAS) npm run test:e2e

test: typecheck test-services test-web test-e2e

bench: install infra
	@npm run bench -w @crewswap/gateway
	@npm run bench -w @crewswap/trips
	@npm run bench -w @crewswap/swaps
	@npm run bench -w @crewswap/roster-ingest
	@npm run bench -w @crewswap/realtime
	@npm run bench -w @crewswap/push-sender

# The whole system at airline scale on this machine (scripts/load.ts): LOAD_SECONDS, LOAD_CLIENTS,
# LOAD_STREAMS and LOAD_PILOTS change the run.
load: install infra
	@node --import tsx scripts/load.ts

# Lighthouse (mobile) scores of the login and trips pages and the cold load to the login form,
# on a stack of its own (scripts/lighthouse.ts). Prints; asserts nothing.
lighthouse: install infra build
	@bash scripts/ensure-chromium.sh
	@node --import tsx scripts/lighthouse.ts

# A dump of every service's schema in DATABASE_URL's database into backups/ (prints the file), and
# back: `make restore FILE=backups/crewswap-<time>.dump` replaces those schemas (CONFIRM=<database>
# when they hold data). deploy/README.md "Back up and restore the database".
backup: infra
	@bash scripts/db-backup.sh

restore: infra
	@bash scripts/db-restore.sh "$(FILE)"

clean:
	rm -rf node_modules */node_modules services/*/node_modules web/dist .local
