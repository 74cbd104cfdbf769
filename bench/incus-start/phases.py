#!/usr/bin/env python3
"""The phases of each container start inside incusd, from `incus monitor --type=logging
--format=json` captured during bench/incus-start/run (BENCH_MONITOR=FILE): p50 per variant, ms.
The debug level's timestamps are in ns in JSON; the --pretty form prints whole seconds.
J (start in the create POST) has no PUT, so its first and last rows are missing.
"""
import json, sys, datetime, re, statistics
from collections import defaultdict
def ts(s):
    d,f=s.rstrip("Z").split("."); return datetime.datetime.fromisoformat(d+"+00:00").timestamp()+float("0."+f)
per=defaultdict(dict)
for line in open(sys.argv[1]):
    line=line.strip()
    if not line.startswith("{"): continue
    e=json.loads(line); m=e["metadata"]; c=m.get("context",{}); t=ts(e["timestamp"]); msg=m["message"]
    inst=c.get("instance")
    if msg=="Handling API request" and c.get("method")=="PUT":
        mm=re.search(r"/instances/(acx-is-[^/]+)/state",c.get("url",""))
        if mm and "started" not in per[mm.group(1)]:  # the start's PUT, not the stop's
            per[mm.group(1)].setdefault("put",t)
        continue
    if msg=="Handling API request":
        mm=re.search(r"/internal/containers/(acx-is-[^/?]+)/onstart",c.get("url",""))
        if mm: per[mm.group(1)].setdefault("onstart",t)
        continue
    if not inst or not inst.startswith("acx-is-"): continue
    d=per[inst]
    if msg=="Start started": d.setdefault("started",t)
    elif msg=="MountInstance finished" and "started" in d: d.setdefault("mounted",t)
    elif msg=="Starting device": d.setdefault("dev_"+c.get("device",""),t)
    elif msg=="Updated static DHCP entry" and "started" in d: d.setdefault("dhcp",t)
    elif msg=="Start finished": d.setdefault("finished",t)
phases=[("API→Start started","put","started"),("lock+mount","started","mounted"),
        ("mounted→first device","mounted","first"),("NIC device start","dev_eth0","dev_root"),
        ("root disk→pre-start hook (LXC)","dev_root","onstart"),("hook→Start finished","onstart","finished"),
        ("total in incusd","put","finished")]
groups=defaultdict(lambda: defaultdict(list))
for inst,d in per.items():
    if not all(k in d for k in ("started","finished","dev_root")): continue
    d["first"]=d.get("dev_eth0",d["dev_root"])
    key=inst[len("acx-is-")]
    n=inst[len("acx-is-")+1:]
    if n=="0": continue  # the warm-ups
    for name,a,b in phases:
        if a in d and b in d: groups[key][name].append((d[b]-d[a])*1000)
keys=sorted(groups)
print("| phase | "+" | ".join(k.upper() for k in keys)+" |")
print("|---|"+"---|"*len(keys))
for name,_,_ in phases:
    row=[]
    for k in keys:
        v=groups[k].get(name)
        row.append(f"{statistics.median(v):.0f}" if v else "–")
    print(f"| {name} | "+" | ".join(row)+" |")
print("samples:", {k.upper(): len(groups[k]['total in incusd']) for k in keys})
