#!/usr/bin/env python3
"""The OCI layout ci/image made, read and repacked (decision 202).

  image_archive.py digest LAYOUT            the manifest's digest (sha256:...)
  image_archive.py sizes LAYOUT             compressed and unpacked bytes of its layers
  image_archive.py docker LAYOUT NAME OUT   OUT: a tar `docker load` and `podman load` read
                                            (Docker's archive: manifest.json, its config, the layers)
  image_archive.py config LAYOUT            the OCI image config, as JSON

An OCI image config has no health check; Docker's has one (config.Healthcheck),
so the archive's manifest.json names a Docker config: the OCI config plus the
HEALTHCHECK. Its image ID therefore differs from the OCI config's digest; the
layers are the same blobs. It holds no index.json: a loader that finds one
prefers the OCI config, and the health check would be lost. Every entry of OUT has SOURCE_DATE_EPOCH's time and
owner 0, in a fixed order, so the same layout gives the same archive.
"""
import copy
import hashlib
import io
import json
import os
import sys
import tarfile

HEALTHCHECK = {
    "Test": ["CMD", "/usr/local/bin/fake-org-entrypoint", "health"],
    "Interval": 2_000_000_000,
    "Timeout": 5_000_000_000,
    "StartPeriod": 30_000_000_000,
    "Retries": 15,
}


def blob_path(layout, digest):
    algo, hexa = digest.split(":", 1)
    return os.path.join(layout, "blobs", algo, hexa)


def read_json(layout, digest):
    with open(blob_path(layout, digest), "rb") as f:
        return json.load(f)


def manifest_descriptor(layout):
    with open(os.path.join(layout, "index.json"), encoding="utf-8") as f:
        index = json.load(f)
    if len(index["manifests"]) != 1:
        sys.exit(f"{layout}: expected one image, found {len(index['manifests'])}")
    return index, index["manifests"][0]


def sizes(layout):
    _, desc = manifest_descriptor(layout)
    manifest = read_json(layout, desc["digest"])
    compressed = sum(l["size"] for l in manifest["layers"])
    unpacked = 0
    for layer in manifest["layers"]:
        with tarfile.open(blob_path(layout, layer["digest"]), "r:*") as t:
            unpacked += sum(m.size for m in t.getmembers() if m.isfile())
    return compressed, unpacked


def docker_config(layout, manifest):
    config = copy.deepcopy(read_json(layout, manifest["config"]["digest"]))
    config.setdefault("config", {})["Healthcheck"] = HEALTHCHECK
    return json.dumps(config, sort_keys=True, separators=(",", ":")).encode()


def add_bytes(tar, name, data, mtime):
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), mtime, 0o644
    tar.addfile(info, io.BytesIO(data))


def docker_archive(layout, name, out):
    mtime = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
    manifest = read_json(layout, manifest_descriptor(layout)[1]["digest"])
    config = docker_config(layout, manifest)
    config_digest = "sha256:" + hashlib.sha256(config).hexdigest()
    entries = {
        "manifest.json": json.dumps([{
            "Config": "blobs/" + config_digest.replace(":", "/"),
            "RepoTags": [name],
            "Layers": ["blobs/" + l["digest"].replace(":", "/") for l in manifest["layers"]],
        }]).encode(),
        "blobs/" + config_digest.replace(":", "/"): config,
    }
    for layer in manifest["layers"]:
        with open(blob_path(layout, layer["digest"]), "rb") as f:
            entries["blobs/" + layer["digest"].replace(":", "/")] = f.read()
    with tarfile.open(out + ".part", "w", format=tarfile.USTAR_FORMAT) as tar:
        for directory in ("blobs", "blobs/sha256"):
            info = tarfile.TarInfo(directory)
            info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, mtime
            tar.addfile(info)
        for entry in sorted(entries):
            add_bytes(tar, entry, entries[entry], mtime)
    os.replace(out + ".part", out)


def main():
    command, layout = sys.argv[1], sys.argv[2]
    if command == "digest":
        print(manifest_descriptor(layout)[1]["digest"])
    elif command == "sizes":
        print(*sizes(layout))
    elif command == "config":
        manifest = read_json(layout, manifest_descriptor(layout)[1]["digest"])
        print(json.dumps(read_json(layout, manifest["config"]["digest"]), indent=2))
    elif command == "docker":
        docker_archive(layout, sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
