#!/bin/sh
# The container image's entrypoint (docs/install.md#the-container-image):
# fake-org from environment variables, as a CI service is configured.
#
#   (no arguments), or options   fake-org with the variables below, then the options
#   health                       exit 0 when /__admin/health answers (the HEALTHCHECK)
#   any other command            run it (scenario-runner ..., sh)
#
#   FAKE_ORG_HOST, FAKE_ORG_PORT  where to listen (0.0.0.0, 8080)
#   FAKE_ORG_FIXTURE              fixtures to serve, space-separated (--fixture each):
#                                 a shipped one's name, or a file under /fixtures
#   FAKE_ORG_DATA_DIR             keep the orgs in SQLite there (--data-dir; /data is the volume's place)
#   FAKE_ORG_FIXTURES_DIR         more directories POST /__admin/orgs may name fixtures in
#   FAKE_ORG_ADMIN_HOSTS          names other containers reach this one by, comma- or
#                                 space-separated (--admin-allow-host each); unset: none
#   FAKE_ORG_ADMIN_OPEN           1: answer /__admin from any address and name (--admin-open)
#   FAKE_ORG_MAX_MEMORY           --max-memory (512MiB, 2GiB)
set -eu
port=${FAKE_ORG_PORT:-8080}
case "${1:-}" in
  health) exec wget -q -O /dev/null "http://127.0.0.1:$port/__admin/health" ;;
  "" | -*) ;;
  *) exec "$@" ;;
esac

set -- --host "${FAKE_ORG_HOST:-0.0.0.0}" --port "$port" "$@"
for fixture in ${FAKE_ORG_FIXTURE:-}; do
  set -- "$@" --fixture "$fixture"
done
[ -z "${FAKE_ORG_DATA_DIR:-}" ] || set -- "$@" --data-dir "$FAKE_ORG_DATA_DIR"
# The bundled suite's fixture files, and /fixtures when something is mounted there.
for dir in /usr/share/fake-crm-org/scenarios /fixtures ${FAKE_ORG_FIXTURES_DIR:-}; do
  [ ! -d "$dir" ] || set -- "$@" --fixtures-dir "$dir"
done
for host in $(echo "${FAKE_ORG_ADMIN_HOSTS:-}" | tr ',' ' '); do
  set -- "$@" --admin-allow-host "$host"
done
[ "${FAKE_ORG_ADMIN_OPEN:-0}" != 1 ] || set -- "$@" --admin-open
[ -z "${FAKE_ORG_MAX_MEMORY:-}" ] || set -- "$@" --max-memory "$FAKE_ORG_MAX_MEMORY"
# fake-org's own line names a loopback URL to click; this one says what the container exposes.
admin="loopback only (FAKE_ORG_ADMIN_HOSTS names more)"
[ -z "${FAKE_ORG_ADMIN_HOSTS:-}" ] || admin="loopback and requests for: $FAKE_ORG_ADMIN_HOSTS"
[ "${FAKE_ORG_ADMIN_OPEN:-0}" != 1 ] || admin="any address and name (FAKE_ORG_ADMIN_OPEN=1)"
echo "fake-org-entrypoint: serving on ${FAKE_ORG_HOST:-0.0.0.0}:$port; /__admin answers $admin" >&2
exec fake-org "$@"
