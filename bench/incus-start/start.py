#!/usr/bin/env python3
"""What an Incus container start costs, one factor at a time (bench/incus-start/run).

Talks to incusd's REST API on its Unix socket ($INCUS_DIR/unix.socket), the way the product's
client does: POST the instance and wait for the operation, PUT .../state {"action": "start"} and
wait, then one exec with recorded output and wait. Each round takes every variant once, in turn,
so load drifts spread over all of them. Everything is made in a throwaway project and bridges
named acx-is-* on 10.214.0.0/16 and deleted at the end (also after a failure).
"""
import http.client
import ipaddress
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

SOCKET = os.path.join(os.environ["INCUS_DIR"], "unix.socket")
PREFIX = "acx-is-"
PROJECT = PREFIX + "r"
PLAIN = PREFIX + "br0"
FENCED = PREFIX + "br1"
BASE_ACL = PREFIX + "base"
FENCE_ACL = FENCED + "-fence"
POOL = ipaddress.ip_network(os.environ.get("BENCH_POOL", "10.214.0.0/16"))
PLAIN_GW = os.environ.get("BENCH_PLAIN", "10.214.200.1/24")
FENCED_GW = os.environ.get("BENCH_FENCED", "10.214.201.1/24")
IMAGE = os.environ.get("BENCH_IMAGE", "busybox")
STORAGE = os.environ.get("BENCH_STORAGE", "default")


class UnixConnection(http.client.HTTPConnection):
    def __init__(self):
        super().__init__("localhost", timeout=120)

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(SOCKET)


conn = UnixConnection()


def req(method, path, body=None, ok=(200, 201, 202)):
    global conn
    data = None if body is None else json.dumps(body).encode()
    for attempt in (1, 2):
        try:
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            payload = json.loads(resp.read() or b"{}")
            break
        except (http.client.HTTPException, OSError):
            conn.close()
            conn = UnixConnection()
            if attempt == 2:
                raise
    if resp.status not in ok:
        raise RuntimeError(f"{method} {path}: {resp.status} {payload.get('error')}")
    return payload


def wait(payload):
    op = payload["operation"]
    done = req("GET", op + "/wait?timeout=120")["metadata"]
    if done["status"] != "Success":
        raise RuntimeError(f"operation {op}: {done['status']} {done.get('err')}")
    return done


def q(project):
    return "" if project == "default" else "?project=" + project


# --- the objects -----------------------------------------------------------------------------


def reject(cidr, why):
    dest = str(cidr.network_address) if cidr.prefixlen == 32 else str(cidr)
    return {"action": "reject", "destination": dest, "state": "enabled",
            "description": "agentcompute:baseline " + why}


def host_addresses():
    """As BridgeBaseline.hostAddresses: managed networks' ipv4.address, other interfaces' state."""
    out = []
    for net in req("GET", "/1.0/networks?recursion=1")["metadata"]:
        name = net["name"]
        if name == "lo" or name.startswith(("veth", "tap")):
            continue
        if net["managed"]:
            a = net["config"].get("ipv4.address", "")
            if a and a != "none":
                out.append(ipaddress.ip_interface(a))
            continue
        state = req("GET", f"/1.0/networks/{name}/state", ok=(200, 404)).get("metadata") or {}
        for a in state.get("addresses") or []:
            if a["family"] == "inet":
                out.append(ipaddress.ip_interface(a["address"] + "/32"))
    return out


def baseline_rules():
    hosts = set()
    for a in host_addresses():
        h = ipaddress.ip_network(f"{a.ip}/32")
        if not h.overlaps(POOL):
            hosts.add(h)
    return [reject(h, "host address") for h in sorted(hosts)]


def fence_rules(gateway):
    gw = ipaddress.ip_interface(gateway)
    rules = [reject(ipaddress.ip_network(f"{gw.ip}/32"), "own gateway")]
    for part in sorted(POOL.address_exclude(gw.network)):
        rules.append(reject(part, "sandbox subnet pool"))
    return rules


def bridge_config(gateway, acls):
    cfg = {"ipv4.address": gateway, "ipv4.nat": "true", "ipv4.dhcp": "true",
           "ipv6.address": "none", "dns.mode": "managed"}
    if acls:
        cfg["security.acls"] = BASE_ACL + "," + FENCE_ACL
        cfg["security.acls.default.ingress.action"] = "reject"
        cfg["security.acls.default.egress.action"] = "allow"
    return cfg


def restricted_project_config():
    """Meta.restrictedProject + IncusSandboxStore.limits (default quotas) + bridgeProject."""
    cfg = {
        "features.images": "true", "features.profiles": "true", "restricted": "true",
        "restricted.containers.nesting": "block",
        "restricted.containers.privilege": "unprivileged",
        "restricted.containers.lowlevel": "block", "restricted.cluster.target": "allow",
        "restricted.snapshots": "allow", "restricted.devices.nic": "managed",
        "restricted.devices.disk": "managed", "restricted.devices.gpu": "block",
        "restricted.devices.pci": "block", "restricted.devices.proxy": "block",
        "restricted.devices.usb": "block", "restricted.devices.unix-block": "block",
        "restricted.devices.unix-char": "block", "restricted.devices.unix-hotplug": "block",
        "restricted.devices.infiniband": "block",
        "limits.instances": "8", "limits.cpu": "8", "limits.memory": "16384MiB",
        "limits.disk": "256GiB", "features.networks": "false",
        "restricted.networks.access": FENCED,
        "user.agentcompute.host": "", "user.agentcompute.network.default": FENCED,
    }
    return cfg


def fingerprint():
    return req("GET", f"/1.0/images/aliases/{IMAGE}")["metadata"]["target"]


def copy_image(fp, project):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["incus", "image", "export", fp, d + "/img"], check=True,
                       stdout=subprocess.DEVNULL)
        files = sorted(os.path.join(d, f) for f in os.listdir(d))
        subprocess.run(["incus", "image", "import", *files, "--project", project], check=True,
                       stdout=subprocess.DEVNULL)


def create_bridge(name, config):
    # Incus 6.0 can fail a bridge creation when another host veth vanishes while it lists the
    # bridge's children (other work on the daemon): try again.
    for attempt in range(5):
        try:
            req("POST", "/1.0/networks", {"name": name, "type": "bridge", "config": config})
            return
        except RuntimeError as e:
            if attempt == 4 or "does not exist" not in str(e):
                raise
            req("DELETE", f"/1.0/networks/{name}", ok=(200, 404))
            time.sleep(0.5)


def setup():
    fp = fingerprint()
    wait_ok = lambda p: p.get("operation") and wait(p)
    req("POST", "/1.0/network-acls", {"name": BASE_ACL, "description": "bench: baseline",
                                       "egress": baseline_rules(), "ingress": []})
    req("POST", "/1.0/network-acls", {"name": FENCE_ACL, "description": "bench: fence",
                                       "egress": fence_rules(FENCED_GW), "ingress": []})
    create_bridge(PLAIN, bridge_config(PLAIN_GW, False))
    create_bridge(FENCED, bridge_config(FENCED_GW, True))
    req("POST", "/1.0/projects", {"name": PROJECT, "config": restricted_project_config()})
    copy_image(fp, PROJECT)
    return fp


def teardown():
    for project in (PROJECT, "default"):
        try:
            names = req("GET", "/1.0/instances" + q(project), ok=(200, 404)).get("metadata") or []
        except RuntimeError:
            names = []
        for url in names:
            name = url.rsplit("/", 1)[1]
            if name.startswith(PREFIX):
                remove(project, name)
    try:
        for url in req("GET", "/1.0/images" + q(PROJECT), ok=(200, 404)).get("metadata") or []:
            req("DELETE", url.split("?")[0] + q(PROJECT), ok=(200, 202, 404))
    except RuntimeError as e:
        print("cleanup:", e, file=sys.stderr)
    for path in (f"/1.0/projects/{PROJECT}", f"/1.0/networks/{PLAIN}",
                 f"/1.0/networks/{FENCED}", f"/1.0/network-acls/{FENCE_ACL}",
                 f"/1.0/network-acls/{BASE_ACL}"):
        for attempt in range(5):
            try:
                p = req("DELETE", path, ok=(200, 202, 404))
                if p.get("operation"):
                    wait(p)
                break
            except RuntimeError as e:  # the same vanished-veth race as create_bridge
                if attempt == 4:
                    print("cleanup:", e, file=sys.stderr)
                time.sleep(0.5)


def remove(project, name):
    try:
        p = req("PUT", f"/1.0/instances/{name}/state{q(project)}",
                {"action": "stop", "force": True, "timeout": -1}, ok=(200, 202, 400, 404))
        if p.get("operation"):
            wait(p)
    except RuntimeError:
        pass
    p = req("DELETE", f"/1.0/instances/{name}{q(project)}", ok=(200, 202, 404))
    if p.get("operation"):
        wait(p)


# --- the variants ------------------------------------------------------------------------------

PRODUCT_CONFIG = {"limits.cpu": "1", "limits.memory": "128MiB", "limits.processes": "1000",
                  "user.agentcompute.image": "busybox", "user.agentcompute.desktop": "false",
                  "image.os": "busybox"}


def nic(network, mac=False, ipv4=False):
    d = {"type": "nic", "network": network, "name": "eth0"}
    if mac:
        d["security.mac_filtering"] = "true"
    if ipv4:
        d["security.ipv4_filtering"] = "true"
    return d


def variant(key, label, project="default", nicdev=None, config=None, size=False,
            start_in_post=False, cli=False):
    root = {"type": "disk", "path": "/", "pool": STORAGE}
    if size:
        root["size"] = "1GiB"
    devices = {"root": root}
    if nicdev:
        devices["eth0"] = nicdev
    return dict(key=key, label=label, project=project, devices=devices, config=config or {},
                start_in_post=start_in_post, cli=cli)


PRODUCT = dict(nicdev=nic(FENCED, True, True), config=PRODUCT_CONFIG, size=True)
VARIANTS = [
    variant("A", "no NIC, no config (default project)"),
    variant("B", "A + root disk size 1GiB", size=True),
    variant("C", "A + limits.cpu/memory/processes, user.*, image.os", config=PRODUCT_CONFIG),
    variant("D", "A + NIC on a plain bridge", nicdev=nic(PLAIN)),
    variant("E", "A + NIC on the bridge with baseline+fence ACLs", nicdev=nic(FENCED)),
    variant("F", "E + security.mac_filtering", nicdev=nic(FENCED, True)),
    variant("G", "E + mac_filtering + ipv4_filtering", nicdev=nic(FENCED, True, True)),
    variant("H", "the product's instance (G+B+C), default project", **PRODUCT),
    variant("I", "the product's instance in a sandbox's restricted project", project=PROJECT,
            **PRODUCT),
    variant("J", "I with start: true in the create POST", project=PROJECT, start_in_post=True,
            **PRODUCT),
    variant("K", "A, started with the incus CLI (incus start)", cli=True),
    variant("L", "I, started with the incus CLI (incus start)", project=PROJECT, cli=True,
            **PRODUCT),
    variant("M", "G on the plain bridge (mac+ipv4 filtering, no ACLs)",
            nicdev=nic(PLAIN, True, True)),
]


def ms(t0):
    return (time.perf_counter() - t0) * 1000


def sample(v, fp, n):
    name = f"{PREFIX}{v['key'].lower()}{n}"
    project = v["project"]
    body = {"name": name, "type": "container", "profiles": [],
            "source": {"type": "image", "fingerprint": fp},
            "config": v["config"], "devices": v["devices"]}
    if v["start_in_post"]:
        body["start"] = True
    t0 = time.perf_counter()
    wait(req("POST", "/1.0/instances" + q(project), body))
    create = ms(t0)
    t1 = time.perf_counter()
    if v["start_in_post"]:
        start = None
    elif v["cli"]:
        subprocess.run(["incus", "start", "--project", project, name], check=True)
        start = ms(t1)
    else:
        wait(req("PUT", f"/1.0/instances/{name}/state{q(project)}",
                 {"action": "start", "timeout": -1}))
        start = ms(t1)
    t2 = time.perf_counter()
    op = wait(req("POST", f"/1.0/instances/{name}/exec{q(project)}",
                  {"command": ["echo", "hi"], "wait-for-websocket": False,
                   "interactive": False, "record-output": True}))
    execms = ms(t2)
    total = ms(t0)
    if op["metadata"].get("return") != 0:
        raise RuntimeError(f"exec in {name}: {op['metadata']}")
    remove(project, name)
    return {"create": create, "start": start, "exec": execms, "total": total}


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    only = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    variants = [v for v in VARIANTS if not only or v["key"] in only]
    teardown()
    results = {v["key"]: [] for v in variants}
    try:
        fp = setup()
        for v in variants:  # one warm-up each, not counted
            sample(v, fp, 0)
        load_before = loadavg()
        for r in range(1, rounds + 1):
            for v in variants:
                results[v["key"]].append(sample(v, fp, r))
        load_after = loadavg()
    finally:
        teardown()
    print(f"\nload average before {load_before}, after {load_after}; {rounds} samples each, ms")
    print("| | variant | create p50/p90 | start p50/p90 | exec p50/p90 | create→exec p50/p90 |")
    print("|---|---|---|---|---|---|")
    for v in variants:
        rs = results[v["key"]]
        cells = []
        for k in ("create", "start", "exec", "total"):
            vals = [x[k] for x in rs if x[k] is not None]
            cells.append(f"{pct(vals, 50):.0f} / {pct(vals, 90):.0f}" if vals else "–")
        print(f"| {v['key']} | {v['label']} | " + " | ".join(cells) + " |")
    if os.environ.get("BENCH_JSON"):
        with open(os.environ["BENCH_JSON"], "w") as f:
            json.dump({"load": [load_before, load_after], "results": results}, f)


if __name__ == "__main__":
    main()
