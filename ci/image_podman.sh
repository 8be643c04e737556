# ci/image_test's checks with podman (sourced; see ci/image_test's header).
# Uses IMAGE_DIR, IMAGE_NAME, work, fail, check_suite, check_commit.

STORE="$IMAGE_DIR/podman"
PREFIX="fake-org-image-test-$$"
PODMAN_WHY=""
pm() {
  podman --root "$STORE/root" --runroot "$STORE/run" --cgroup-manager=cgroupfs \
    --storage-driver="$DRIVER" --runtime runc --log-level=error "$@"
}
# Containers of these tests: ulimits podman may set here, and no systemd
# timer for the health check (ci/image_test runs it with `healthcheck run`).
RUN_OPTS=(--ulimit nofile=20000:20000 --ulimit nproc=4096:4096 --health-interval disable)

podman_cleanup() {
  pm ps -aq --filter "name=^$PREFIX" 2>/dev/null | xargs -r podman --root "$STORE/root" \
    --runroot "$STORE/run" --cgroup-manager=cgroupfs --storage-driver="$DRIVER" rm -f -t 0 >/dev/null 2>&1 || true
}

podman_ready() {
  command -v podman >/dev/null && command -v runc >/dev/null || { PODMAN_WHY="podman or runc missing"; return 1; }
  for DRIVER in overlay vfs; do
    if pm load -q -i "$IMAGE_DIR/fake-org-image.tar" >"$work/load.log" 2>&1 &&
      pm run --rm "${RUN_OPTS[@]}" "$IMAGE_NAME" true >"$work/ready.log" 2>&1; then
      trap podman_cleanup EXIT
      echo "image_test: podman (runc, cgroupfs, $DRIVER storage), image loaded (at $((SECONDS - start)) s)"
      return 0
    fi
  done
  PODMAN_WHY=$(tail -1 "$work/ready.log" "$work/load.log" 2>/dev/null | grep -v '^==>' | grep . | head -1)
  return 1
}

wait_healthy() {  # wait_healthy NAME: the image's HEALTHCHECK passes
  for _ in $(seq 100); do
    pm healthcheck run "$1" >>"$work/podman.log" 2>&1 && return 0
    [ "$(pm inspect -f '{{.State.Running}}' "$1")" = true ] || { pm logs "$1"; fail "$1 exited"; }
    sleep 0.2
  done
  pm logs "$1"
  fail "$1 never became healthy"
}

stop_cleanly() {  # stop_cleanly NAME: SIGTERM ends it with status 0
  pm stop -t 10 "$1" >>"$work/podman.log" 2>&1
  local status
  status=$(pm inspect -f '{{.State.ExitCode}}' "$1")
  [ "$status" = 0 ] || { pm logs "$1" | tail; fail "$1 exited $status after SIGTERM (137: it was killed)"; }
  pm logs "$1" 2>&1 | grep -q 'SIGTERM received' || fail "$1 did not say it received SIGTERM"
}

podman_image_checks() {
  local health user labels
  health=$(pm image inspect -f '{{json .HealthCheck}}' "$IMAGE_NAME")
  grep -q '__admin/health\|fake-org-entrypoint' <<<"$health" || fail "the loaded image has no HEALTHCHECK: $health"
  user=$(pm run --rm "${RUN_OPTS[@]}" "$IMAGE_NAME" id -u)
  [ "$user" != 0 ] || fail "the image runs as root"
  check_commit "$(pm run --rm "${RUN_OPTS[@]}" "$IMAGE_NAME" fake-org --version)"
  labels=$(pm inspect -f '{{json .Labels}}' "$IMAGE_NAME")
  for key in source version revision licenses; do
    grep -q "\"org.opencontainers.image.$key\"" <<<"$labels" || fail "no label org.opencontainers.image.$key"
  done
  grep -q "\"org.opencontainers.image.revision\":\"$IMAGE_REVISION\"" <<<"$labels" || fail "labels: $labels"
}

# The suite from a second container of the image in the service's network
# namespace, as docs/ci.md's examples run it: the runner's webhook receiver
# listens on loopback, where fake-org's deliveries go (decision 203).
podman_suite() {
  local svc="$PREFIX-svc"
  pm run -d --name "$svc" "${RUN_OPTS[@]}" "$IMAGE_NAME" >>"$work/podman.log" 2>&1
  wait_healthy "$svc"
  mkdir -p "$work/reports" && chmod 777 "$work/reports"
  pm run --rm "${RUN_OPTS[@]}" --network "container:$svc" -v "$work/reports:/reports" "$IMAGE_NAME" \
    scenario-runner --target http://127.0.0.1:8080 -j 4 --no-progress \
    --report-junit /reports/junit.xml >"$work/suite.log" 2>&1 || true
  check_suite "$work/suite.log"
  stop_cleanly "$svc"
}

admin_by_name() {  # admin_by_name IP: /__admin/health asked for as http://fake-org:8080 from another container
  pm run --rm "${RUN_OPTS[@]}" --add-host "fake-org:$1" "$IMAGE_NAME" \
    wget -q -O - http://fake-org:8080/__admin/health 2>&1 || true
}

podman_guard_and_volumes() {  # no admin by name unless asked; the fixture and data variables
  local svc="$PREFIX-vol" named="$PREFIX-named" ip answer
  mkdir -p "$work/fixtures" "$work/data" && chmod 777 "$work/data"
  printf 'extends: default.yaml\norg:\n  name: Image Test Org\n' >"$work/fixtures/mine.yaml"
  pm run -d --name "$svc" "${RUN_OPTS[@]}" -v "$work/fixtures:/fixtures:ro" -v "$work/data:/data" \
    -e FAKE_ORG_FIXTURE=/fixtures/mine.yaml -e FAKE_ORG_DATA_DIR=/data "$IMAGE_NAME" >>"$work/podman.log" 2>&1
  wait_healthy "$svc"
  ip=$(pm inspect -f '{{.NetworkSettings.IPAddress}}' "$svc")
  answer=$(admin_by_name "$ip")
  ! grep -q '"fixture"' <<<"$answer" || fail "the admin API answered another container without FAKE_ORG_ADMIN_HOSTS: $answer"
  answer=$(pm exec "$svc" wget -q -O - http://127.0.0.1:8080/__admin/health)
  grep -q '"fixture":"/fixtures/mine.yaml"' <<<"$answer" || fail "FAKE_ORG_FIXTURE not served: $answer"
  grep -q '"data_file":"/data/' <<<"$answer" || fail "FAKE_ORG_DATA_DIR not used: $answer"
  stop_cleanly "$svc"
  ls "$work/data" | grep -q . || fail "nothing was kept in the FAKE_ORG_DATA_DIR volume"
  pm run -d --name "$named" "${RUN_OPTS[@]}" -e FAKE_ORG_ADMIN_HOSTS=fake-org "$IMAGE_NAME" >>"$work/podman.log" 2>&1
  wait_healthy "$named"
  answer=$(admin_by_name "$(pm inspect -f '{{.NetworkSettings.IPAddress}}' "$named")")
  grep -q '"fixture"' <<<"$answer" || fail "FAKE_ORG_ADMIN_HOSTS=fake-org: the admin API refused its name: $answer"
  stop_cleanly "$named"
}

podman_checks() {
  podman_image_checks
  podman_suite
  podman_guard_and_volumes
  # docs/ci.md's container examples, run as their CI would run them.
  python3 "$ROOT_DIR/ci/image_examples.py" "$ROOT_DIR" "$work/examples" "$IMAGE_NAME" "$expected" \
    podman --root "$STORE/root" --runroot "$STORE/run" --cgroup-manager=cgroupfs \
    --storage-driver="$DRIVER" --runtime runc --log-level=error >"$work/examples.log" 2>&1 ||
    { cat "$work/examples.log"; fail "docs/ci.md's container examples"; }
  echo "image_test: docs/ci.md's GitHub Actions, GitLab CI, Compose and Testcontainers examples hold (at $((SECONDS - start)) s)"
}
