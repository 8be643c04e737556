#!/usr/bin/env bash
# mmdebstrap's extract hook for ci/image: ROOT (extracted Debian 12
# libraries and busybox) becomes the image's root: the package unpacked, the
# user, the entrypoint, and nothing a running fake-org does not read
# (documentation, locales, charset converters, apt's state).
#
#   ci/image_root.sh ROOT DEB
set -euo pipefail
root=$1 deb=$2
here=$(cd "$(dirname "$0")/.." && pwd)
dpkg-deb -x "$deb" "$root"

# busybox's applets as links (sh for the entrypoint and a CI job's script,
# wget for the health check), leaving any file a package installed alone.
for applet in $("$root/bin/busybox" --list); do
  [ -e "$root/bin/$applet" ] || [ -e "$root/usr/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

cat >"$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
fake-org:x:10001:10001:fake-org:/data:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PASSWD
cat >"$root/etc/group" <<'GROUP'
root:x:0:
fake-org:x:10001:
nogroup:x:65534:
GROUP
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
# The host's, copied by mmdebstrap: a container runtime writes its own.
rm -f "$root/etc/hostname" "$root/etc/resolv.conf"
install -d -m 0755 -o 10001 -g 10001 "$root/data"
install -d -m 1777 "$root/tmp"
install -d -m 0700 "$root/root"
install -D -m 0755 "$here/packaging/container/entrypoint.sh" "$root/usr/local/bin/fake-org-entrypoint"

# Only the licences stay of /usr/share/doc (the project's own docs are in the
# .deb; the image links to nothing there).
find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$root/usr/share/doc" -depth -mindepth 1 -type d -empty -delete
rm -rf "$root"/usr/share/{man,info,lintian,locale,bash-completion,gdb,gcc,initramfs-tools} \
  "$root/usr/share/fake-crm-org/docs" "$root"/usr/lib/x86_64-linux-gnu/gconv \
  "$root"/var/cache/* "$root"/var/lib/apt "$root"/var/log/*
# apt's sources of the machine that built it (no apt runs in the image).
rm -rf "$root"/etc/apt/sources.list.d/* "$root"/etc/apt/sources.list
