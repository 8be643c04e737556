# ci/image_test's fallback where podman cannot start a container (sourced):
# the OCI layout unpacked by umoci, its entrypoint run as the image's config
# says (user, environment, working directory) under unshare: PID and mount
# namespaces of its own, /proc and /dev mounted, chroot into the root. The
# network is the host's, so it listens on a free port of loopback.
# Uses IMAGE_DIR, IMAGE_NAME, work, fail, check_suite, check_commit.

bundle="$work/bundle"
svc_pid=""
unshare_cleanup() {
  [ -z "$svc_pid" ] || kill -KILL "$svc_pid" 2>/dev/null || true
  umount -R "$bundle/rootfs/proc" "$bundle/rootfs/dev" 2>/dev/null || true
}

# in_image ENV... -- COMMAND...: COMMAND in the root as the image's user,
# with its environment plus ENV, in its working directory.
in_image() {
  local extra=()
  while [ "$1" != "--" ]; do extra+=("$1"); shift; done
  shift
  unshare --pid --fork --mount --kill-child sh -c '
    root=$1; shift
    mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev"
    exec chroot --userspec="$USERSPEC" "$root" env -i "$@"' _ "$bundle/rootfs" \
    "${IMAGE_ENV[@]}" "${extra[@]}" sh -c 'cd "$0" && exec "$@"' "$IMAGE_CWD" "$@"
}

unshare_checks() {
  command -v umoci >/dev/null || fail "neither podman nor umoci can run the image here"
  trap unshare_cleanup EXIT
  umoci unpack --image "$IMAGE_DIR/oci:${IMAGE_NAME#*:}" "$bundle" >/dev/null
  mkdir -p "$bundle/rootfs/proc" "$bundle/rootfs/dev"
  local spec
  spec=$(python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["process"]
print("%d:%d" % (p["user"]["uid"], p["user"]["gid"])); print(p["cwd"]); print("\x1f".join(p["env"]))' \
    "$bundle/config.json")
  USERSPEC=$(sed -n 1p <<<"$spec") IMAGE_CWD=$(sed -n 2p <<<"$spec")
  IFS=$'\x1f' read -r -a IMAGE_ENV <<<"$(sed -n 3p <<<"$spec")"
  [ "${USERSPEC%%:*}" != 0 ] || fail "the image runs as root"
  check_commit "$(in_image -- fake-org --version)"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  in_image FAKE_ORG_PORT="$port" -- /usr/local/bin/fake-org-entrypoint >"$work/svc.log" 2>&1 &
  svc_pid=$!
  for _ in $(seq 100); do
    in_image FAKE_ORG_PORT="$port" -- /usr/local/bin/fake-org-entrypoint health 2>/dev/null && break
    kill -0 "$svc_pid" 2>/dev/null || { cat "$work/svc.log"; fail "the entrypoint exited"; }
    sleep 0.2
  done
  in_image -- scenario-runner --target "http://127.0.0.1:$port" -j 4 --no-progress \
    >"$work/suite.log" 2>&1 || true
  check_suite "$work/suite.log"
  # $svc_pid is the background subshell; under it unshare, under that fake-org.
  kill -TERM "$(pgrep -P "$(pgrep -P "$svc_pid")")"
  local status=0
  wait "$svc_pid" || status=$?
  svc_pid=""
  [ "$status" = 0 ] || { tail "$work/svc.log"; fail "exited $status after SIGTERM"; }
}
