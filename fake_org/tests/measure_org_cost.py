#!/usr/bin/env python3
"""The cost of an empty org (decisions 107): starts FAKE_ORG on a free port, creates N orgs
of default.yaml one after another over one kept-alive connection, and prints the RSS
growth per org, the creation times and the thread count.

Usage: measure_org_cost.py FAKE_ORG [N]
"""
import http.client, json, sys, time, subprocess, os, re, statistics
bin_=sys.argv[1]; n=int(sys.argv[2]) if len(sys.argv)>2 else 200
p=subprocess.Popen([bin_,"--port","0","--log-level","quiet"],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL,text=True)
url=p.stdout.readline().split()[-1]; host,port=url.split("//")[1].split(":")
def rss(): return int(re.search(r"VmRSS:\s+(\d+)",open(f"/proc/{p.pid}/status").read()).group(1))
c=http.client.HTTPConnection(host,int(port))
c.request("GET","/__admin/health"); c.getresponse().read()
time.sleep(0.3); before=rss(); times=[]
for i in range(n):
    t=time.perf_counter()
    c.request("POST","/__admin/orgs",json.dumps({"fixture":"default.yaml","login_paths":False}),{"Content-Type":"application/json"})
    r=c.getresponse(); r.read(); assert r.status==201, r.status
    times.append((time.perf_counter()-t)*1000)
time.sleep(0.3); after=rss()
threads=len(os.listdir(f"/proc/{p.pid}/task"))
print(f"{n} orgs: RSS {before/1024:.1f} MB -> {after/1024:.1f} MB, {(after-before)/n:.0f} KB/org; create p50 {statistics.median(times):.2f} ms, mean {statistics.mean(times):.2f} ms, max {max(times):.2f} ms; threads {threads}")
p.terminate(); p.wait()
