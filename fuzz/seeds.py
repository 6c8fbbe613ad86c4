#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target into fuzz/corpus/TARGET from the repository's
own examples (profiles, topologies, export fixtures, fio job files) and hand-written values.
Run from anywhere: python3 fuzz/seeds.py [RESULT.json ...] (result JSON files to add to the
results target's seeds, e.g. a small simulated run and sweep). The libFuzzer runs add their
own finds to the same folders; keep only small ones in git (cargo fuzz cmin shrinks them)."""

import hashlib
import os
import sys

FUZZ = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(FUZZ)


def put(target, data):
    d = os.path.join(FUZZ, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(*path):
    with open(os.path.join(REPO, *path), encoding="utf-8") as f:
        return f.read()


# flags: first byte the parser (the order of `value` in fuzz_targets/flags.rs), then the value.
FLAG_VALUES = [
    ["8k", "1GiB", "4096", "1.5m", "10g"],                      # 0 size
    ["30s", "1m30s", "500ms", "2h"],                             # 1 duration
    ["200us", "0.5ms", "1s", "250ns"],                           # 2 latency
    ["8k", "8k:70,64k:20,256k:10", "4k:1,8k:3"],                 # 3 --bs
    ["uniform", "zipf:1.2", "pareto:0.2", "hotspot:90/10"],      # 4 --skew
    ["dsync", "fdatasync:4", "fsync", "none"],                   # 5 --sync
    ["qd=1,2,4,8", "qd=1..128x2", "bs=8k..1mx2", "mix=0,50,100"],  # 6 --vary
    ["iops:2%|10s|120s", "iops_slope:0.3%", "bw:5%|5s"],         # 7 --steady|window|max
    ["2s/10s", "500ms/5s"],                                      # 8 --burst
    ["1ms", "exp:2ms", "0"],                                     # 9 --think
    ["random", "zeros", "pattern:0xdeadbeef", "dedupe:3,compress:2,unit:8k"],  # 10 --data
    ["xtremio", "pure-like", "2k,4k,8k", "1k..16k"],             # 11 --buckets
    ["nvme-gen3", "sata-ssd,channels=16",
     "channels=1,read=100us,write=100us,dist=exp,bw=3.2GB/s,link=10us"],  # 12 --sim
    ["p99<1ms", "avg<200us", "read:p99.9<2ms", "write:p50<100us"],  # 13 --slo
    ["3.2GB/s", "400MB/s", "16Gb/s", "1GiB/s"],                  # 14 path rates
    ["host1", "user@db2:2222", "[::1]:22"],                      # 15 hosts
    ["A=75,B=6", "a=1,b=2"],                                     # 16 --devices
    ["2026-11-01", "2026-11-01T08:00:00Z", "7d", "2h"],          # 17 --since
    ["0.4", "40%"],                                              # 18 --io-wait-share
    ["/mnt/data/t.dat", "log=/mnt/log/t.dat", "data=./x"],       # 19 --target
]
for i, values in enumerate(FLAG_VALUES):
    for v in values:
        put("flags", bytes([i]) + v.encode())
COMMAND_LINES = [
    "run\noltp\n--engine\nsim\n--ops\n1000",
    "run\n--rw\nrandrw\n--mix\n70\n--bs\n8k\n--qd\n32\n--threads\n4\n--duration\n60s\n--skew\nzipf:1.1",
    "run\nslob\n--sessions\n8\n--think\n1ms\n--target\ndata=/d\n--target\nlog=/l",
    "run\n--rate\n5000\n--arrivals\npoisson\n--burst\n2s/10s\n--steady\niops:2%",
    "run\n--verify\n--verify-journal\nj.bin\n--rw\nrandwrite",
    "sweep\noltp-read\n--engine\nsim\n--vary\nqd=1..128x2\n--slo\np99<1ms",
    "sweep\ndss\n--vary\nbs=8k,64k,256k,1m\n--target-latency\np99<2ms",
    "advise\nvfilestat.csv\n--flash\n500GiB\n--flash-latency\n200us\n--io-wait-share\n40%",
    "advise\n--url\npostgres://u@h/db\n--interval\n60s\n--snapshot\nb.json",
]
for c in COMMAND_LINES:
    put("flags", bytes([20]) + c.encode())

# toml: 0 + a profile, 1 + a topology.
for f in sorted(os.listdir(os.path.join(REPO, "crates/spec/profiles"))):
    put("toml", b"\0" + read("crates/spec/profiles", f).encode())
for f in sorted(os.listdir(os.path.join(REPO, "crates/analyze/tests/fixtures"))):
    put("toml", b"\1" + read("crates/analyze/tests/fixtures", f).encode())

# exports: 0/1 one export (1: diskstats partitions), 3 two exports, 4 sizes then export.
FIX = "crates/cli/tests/advise_fixtures"
for f in ["awr.txt", "datafiles.csv", "dmv_after.csv", "fig5.csv", "vfilestat.csv",
          "diskstats_after.txt"]:
    put("exports", b"\0" + read(FIX, f).encode())
put("exports", b"\1" + read(FIX, "diskstats_after.txt").encode())
put("exports", b"\3" + (read(FIX, "dmv_before.csv") + "\n====\n" + read(FIX, "dmv_after.csv")).encode())
put("exports", b"\3" + (read(FIX, "diskstats_before.txt") + "\n====\n"
                        + read(FIX, "diskstats_after.txt")).encode())
put("exports", b"\4" + (read(FIX, "disk_sizes.csv") + "\n====\n" + read(FIX, "diskstats_after.txt")).encode())
put("exports", b"\2" + b'{"schema":"dbio.advise-snapshot/1","system":"postgresql","source":"x",'
    b'"taken_at_ms":1,"counting_ms":1000,"server_started":null,"is_delta":false,"objects":[],'
    b'"io_wait":null,"read_time_pool":null,"notes":[]}')

# jobs: tool byte (0 sqlio, 1 diskspd, 2 fio), arguments one per line, NUL, files.
for args in ["-kW\n-t2\n-s10\n-o8\n-fsequential\n-b64\n-BH\n-LS\n-Fparam.txt\0param.txt\nc:\\t.dat 2 0x0 100",
             "-kR\n-frandom\n-b8\n-t8\n-o8\n-s60\n-BH\n-LS\n/mnt/data/t.dat"]:
    put("jobs", b"\0" + args.encode())
XML = ("<Profile><TimeSpans><TimeSpan><Duration>60</Duration><Warmup>5</Warmup><Targets>"
       "<Target><Path>*1</Path><BlockSize>8192</BlockSize><DisableOSCache>true</DisableOSCache>"
       "<WriteThrough>true</WriteThrough><Random>8192</Random><RequestCount>32</RequestCount>"
       "<WriteRatio>25</WriteRatio><ThreadsPerFile>4</ThreadsPerFile></Target></Targets>"
       "</TimeSpan></TimeSpans></Profile>")
for args in ["-b8K\n-d60\n-o32\n-t4\n-r\n-w25\n-Sh\n/mnt/data/t.dat",
             "-c10G\n-b64K\n-d120\n-o8\n-t2\n-s\n-w100\n-Sh\n-L\n/mnt/log/t.dat",
             "-Xp.xml\n/mnt/t.dat\0p.xml\n" + XML,
             "-b4K\n-rdpct90/10\n-Z1M\n-g100i\n-B1G:2G\n-f4G\n/t.dat"]:
    put("jobs", b"\1" + args.encode())
EX = "crates/cli/tests/fio_examples"
for f in sorted(os.listdir(os.path.join(REPO, EX))):
    text = read(EX, f)
    if len(text) < 3000:
        put("jobs", b"\2" + f"{f}\0{f}\n{text}".encode())
put("jobs", b"\2" + b"a.fio\0a.fio\n[global]\nbs=8k\ninclude b.fio\n[j]\nrw=randread\0b.fio\niodepth=32\n")

# results: result JSON files given on the command line.
for f in sys.argv[1:]:
    with open(f, "rb") as fh:
        put("results", fh.read())
