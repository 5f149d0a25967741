#!/usr/bin/env python3
"""Side by side with ASTRA-sim: one all-reduce or all-to-all per run, on ring, switch, fully-connected,
2-D and 3-D torus networks of 8, 64 and 1,024 NPUs, timed by partita-cli (`topology collective`) and by
ASTRA-sim's analytical backend. Not part of CI: it needs an ASTRA-sim build outside the repository
(docs/methods/flexflow.md#side-by-side-with-astra-sim says how the published table was made).

usage: tools/astra-compare.py --astra BIN [--astra-aware BIN] [--cli BIN] [--work DIR]
                              [--sizes 1M,16M,256M,1G] [--npus 8,64,1024] [--only TEXT] [--markdown]
  --astra BIN        AstraSim_Analytical_Congestion_Unaware
  --astra-aware BIN  AstraSim_Analytical_Congestion_Aware (optional; it takes one-dimensional networks only)
  --cli BIN          partita-cli (default build/app/partita-cli, else partita-cli on PATH)
  --work DIR         scratch files and a results cache, results.json (default /tmp/partita-astra)
  --only TEXT        run the cases whose label contains TEXT (e.g. "torus2d")
  --markdown         print the rows as Markdown (default: tab-separated)
  --summary          print the cached results as the documentation's table instead (one row per network
                     and operation: times at the smallest and largest size, ratios at every size)

Building ASTRA-sim (the published table: astra-sim c459ab6 with astra-network-analytical 599a047, chakra
214f2c5 and astra-memory-analytical 641cce8 in its extern/ folders; fmt, spdlog and yaml-cpp from Debian
in place of its fetched copies, i.e. find_package(fmt), find_package(spdlog) and find_package(yaml-cpp)
in its two CMakeLists.txt):
  protoc et_def.proto --proto_path=extern/graph_frontend/chakra/schema/protobuf \
         --cpp_out=extern/graph_frontend/chakra/schema/protobuf
  cmake -S build/astra_analytical -B build/astra_analytical/build -DBUILDTARGET=all -DCMAKE_BUILD_TYPE=Release
  cmake --build build/astra_analytical/build -j2     # bin/AstraSim_Analytical_Congestion_{Unaware,Aware}

Both sides get the same network: every link LINK_GBPS (ASTRA-sim reads GB as 2^30 B, Partita as 10^9 B,
so Partita is given LINK_GBPS * 2^30 / 10^9) and LINK_NS of latency; the same bytes (sizes are binary:
1M = 2^20 B); ASTRA-sim with one chunk (preferred-dataset-splits 1), a 1 ns endpoint delay (0 trips an
assertion of its event queue), local memory too fast to count (local-mem-bw 10^6 GB/s) and the
localBWAware multi-dimensional all-reduce. Workloads are Chakra execution traces (one collective node
per NPU) written here with a small protobuf encoder, so no Python protobuf package is needed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK_GBPS = 50.0       # ASTRA-sim's unit, 2^30 B/s
LINK_NS = 500.0
OURS_GBPS = LINK_GBPS * (1 << 30) / 1e9
TIMEOUT_S = 1800       # per ASTRA-sim run
SIZES = {'1M': 1 << 20, '16M': 1 << 24, '256M': 1 << 28, '1G': 1 << 30}
SHOWN = {'1M': '1 MiB', '16M': '16 MiB', '256M': '256 MiB', '1G': '1 GiB'}

# Chakra ET field numbers (schema/protobuf/et_def.proto): Node id 1, name 2, type 3, attr 10;
# AttributeProto name 1, int64_val 9, bool_val 27; GlobalMetadata version 1.
COMM_COLL_NODE = 7
COMM_TYPE = {'all-reduce': 0, 'all-to-all': 6}


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, wire, payload):
    key = varint((number << 3) | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def attr_int(name, value):
    return field(1, 2, name.encode()) + field(9, 0, value)


def attr_bool(name, value):
    return field(1, 2, name.encode()) + field(27, 0, 1 if value else 0)


def delimited(message):
    return varint(len(message)) + message


def write_traces(prefix, npus, op, size):
    node = (field(1, 0, 0) + field(2, 2, op.encode()) + field(3, 0, COMM_COLL_NODE) +
            field(10, 2, attr_bool('is_cpu_op', False)) + field(10, 2, attr_int('comm_type', COMM_TYPE[op])) +
            field(10, 2, attr_int('comm_size', size)))
    body = delimited(field(1, 2, b'0.0.4')) + delimited(node)
    for i in range(npus):
        with open(f'{prefix}.{i}.et', 'wb') as f:
            f.write(body)


# One case: label, ASTRA-sim dimensions [(shape, count)], partita-cli generate arguments, and per
# operation the algorithm on each side (ASTRA-sim per dimension, Partita's --algorithm).
def cases(npus_list):
    out = []
    for p in npus_list:
        out.append((f'ring {p}', [('Ring', p)], ['ring', '--devices', str(p)],
                    {'all-reduce': ('ring', 'ring'), 'all-to-all': ('ring', 'ring')}))
        out.append((f'switch {p}', [('Switch', p)], ['switch', '--devices', str(p)],
                    {'all-reduce': ('ring', 'ring'), 'all-to-all': ('direct', 'direct')}))
        out.append((f'fully-connected {p}', [('FullyConnected', p)], ['fully-connected', '--devices', str(p)],
                    {'all-reduce': ('direct', 'direct'), 'all-to-all': ('direct', 'direct')}))
        dims2 = {8: (2, 4), 64: (8, 8), 1024: (32, 32)}.get(p)
        if dims2:
            out.append((f'torus2d {dims2[0]}x{dims2[1]}', [('Ring', d) for d in dims2],
                        ['torus', '--dims', 'x'.join(map(str, dims2))],
                        {'all-reduce': ('ring', 'hierarchical'), 'all-to-all': ('ring', 'direct')}))
        dims3 = {8: (2, 2, 2), 64: (4, 4, 4), 1024: (8, 8, 16)}.get(p)
        if dims3:
            out.append((f'torus3d {dims3[0]}x{dims3[1]}x{dims3[2]}', [('Ring', d) for d in dims3],
                        ['torus', '--dims', 'x'.join(map(str, dims3))],
                        {'all-reduce': ('ring', 'hierarchical'), 'all-to-all': ('ring', 'direct')}))
    return out


def npus_of(dims):
    n = 1
    for _, c in dims:
        n *= c
    return n


def run_astra(binary, work, key, dims, op, algorithm, size):
    d = os.path.join(work, key.replace(' ', '_'))
    os.makedirs(d, exist_ok=True)
    n = npus_of(dims)
    with open(os.path.join(d, 'network.yml'), 'w') as f:
        f.write('topology: [ %s ]\n' % ', '.join(s for s, _ in dims))
        f.write('npus_count: [ %s ]\n' % ', '.join(str(c) for _, c in dims))
        f.write('bandwidth: [ %s ]\n' % ', '.join(str(LINK_GBPS) for _ in dims))
        f.write('latency: [ %s ]\n' % ', '.join(str(LINK_NS) for _ in dims))
    impl = [algorithm] * len(dims)
    system = {'scheduling-policy': 'LIFO', 'endpoint-delay': 1, 'active-chunks-per-dimension': 1,
              'preferred-dataset-splits': 1, 'all-reduce-implementation': impl,
              'all-gather-implementation': impl, 'reduce-scatter-implementation': impl,
              'all-to-all-implementation': impl, 'collective-optimization': 'localBWAware',
              'local-mem-bw': 1000000, 'boost-mode': 0}
    with open(os.path.join(d, 'system.json'), 'w') as f:
        json.dump(system, f)
    with open(os.path.join(d, 'memory.json'), 'w') as f:
        json.dump({'memory-type': 'NO_MEMORY_EXPANSION'}, f)
    write_traces(os.path.join(d, 'trace'), n, op, size)
    try:
        proc = subprocess.run([binary, '--workload-configuration=' + os.path.join(d, 'trace'),
                               '--system-configuration=' + os.path.join(d, 'system.json'),
                               '--remote-memory-configuration=' + os.path.join(d, 'memory.json'),
                               '--network-configuration=' + os.path.join(d, 'network.yml')],
                              capture_output=True, text=True, cwd=d, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        shutil.rmtree(d, ignore_errors=True)
        return {'error': f'not finished in {TIMEOUT_S} s'}
    cycles = [int(m) for m in re.findall(r'sys\[\d+\] finished, (\d+) cycles', proc.stdout + proc.stderr)]
    shutil.rmtree(d, ignore_errors=True)
    if proc.returncode != 0 or len(cycles) != n:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or ['no output']
        return {'error': f'exit {proc.returncode}, {len(cycles)}/{n} NPUs finished: {tail[0][:120]}'}
    return {'s': max(cycles) * 1e-9}


def run_ours(cli, work, generate, op, algorithm, size):
    topo = os.path.join(work, 'ours-' + '-'.join(generate) + '.json')
    if not os.path.exists(topo):
        g = subprocess.run([cli, 'topology', 'generate', *generate, '--bandwidth-GBps', repr(OURS_GBPS),
                            '--latency-ns', repr(LINK_NS), '--out', topo], capture_output=True, text=True)
        if g.returncode != 0:
            return {'error': (g.stderr or g.stdout).strip().splitlines()[-1]}
    r = subprocess.run([cli, 'topology', 'collective', '--topology', topo, '--op', op, '--bytes', str(size),
                        '--algorithm', algorithm, '--json'], capture_output=True, text=True)
    if r.returncode != 0:
        return {'error': (r.stderr or r.stdout).strip().splitlines()[-1]}
    return {'s': json.loads(r.stdout)['algorithms'][0]['time_s']}


def fmt_time(v):
    if 'error' in v:
        return '—'
    s = v['s']
    for unit, scale in (('s', 1), ('ms', 1e-3), ('µs', 1e-6)):
        if s >= scale:
            return f'{s / scale:.4g} {unit}'
    return f'{s * 1e9:.4g} ns'


def ratio_of(entry, side='theirs'):
    if not entry or 's' not in entry.get('ours', {}) or 's' not in entry.get(side, {}):
        return '—'
    return f"{entry['ours']['s'] / entry[side]['s']:.2f}"


def summary(cache, npus_list, sizes):
    first, last = sizes[0], sizes[-1]
    header = (['network', 'op', 'algorithm (ours / ASTRA-sim)', f'{SHOWN[first]}: ours', 'ASTRA-sim', 'ratio'] +
              [f'{SHOWN[s]} ratio' for s in sizes[1:-1]] +
              [f'{SHOWN[last]}: ours', 'ASTRA-sim', 'ratio', f'{SHOWN[last]}, ours / congestion-aware'])
    print('| ' + ' | '.join(header) + ' |')
    print('|---|---|---|' + '---:|' * (len(header) - 3))
    for label, _, _, ops in cases(npus_list):
        for op, (theirs_alg, ours_alg) in ops.items():
            e = {s: cache.get(f'{label} {op} {s}', {}) for s in sizes}
            cells = [label, op, f'{ours_alg} / {theirs_alg}']
            cells += [fmt_time(e[first].get('ours', {'error': ''})), fmt_time(e[first].get('theirs', {'error': ''})),
                      ratio_of(e[first])]
            cells += [ratio_of(e[s]) for s in sizes[1:-1]]
            cells += [fmt_time(e[last].get('ours', {'error': ''})), fmt_time(e[last].get('theirs', {'error': ''})),
                      ratio_of(e[last]), ratio_of(e[last], 'aware')]
            print('| ' + ' | '.join(cells) + ' |')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--astra', required=True)
    ap.add_argument('--astra-aware')
    default_cli = os.path.join(ROOT, 'build', 'app', 'partita-cli')
    ap.add_argument('--cli', default=default_cli if os.path.exists(default_cli) else 'partita-cli')
    ap.add_argument('--work', default='/tmp/partita-astra')
    ap.add_argument('--sizes', default='1M,16M,256M,1G')
    ap.add_argument('--npus', default='8,64,1024')
    ap.add_argument('--only', default='')
    ap.add_argument('--markdown', action='store_true')
    ap.add_argument('--summary', action='store_true')
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cache_path = os.path.join(a.work, 'results.json')
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    if a.summary:
        summary(cache, [int(x) for x in a.npus.split(',')], a.sizes.split(','))
        return
    rows = []
    for label, dims, generate, ops in cases([int(x) for x in a.npus.split(',')]):
        if a.only not in label:
            continue
        for op, (theirs_alg, ours_alg) in ops.items():
            for size_name in a.sizes.split(','):
                size = SIZES[size_name]
                key = f'{label} {op} {size_name}'
                entry = cache.get(key, {})
                if 'ours' not in entry:
                    entry['ours'] = run_ours(a.cli, a.work, generate, op, ours_alg, size)
                if 'theirs' not in entry:
                    # ASTRA-sim's ring all-to-all relays n(n-1)/2 messages per NPU, hours at 1,024.
                    if op == 'all-to-all' and theirs_alg == 'ring' and max(c for _, c in dims) > 64:
                        entry['theirs'] = {'error': 'not run: n(n-1)/2 relayed messages per NPU'}
                    else:
                        t0 = time.time()
                        entry['theirs'] = run_astra(a.astra, a.work, key, dims, op, theirs_alg, size)
                        entry['theirs_wall_s'] = round(time.time() - t0, 1)
                if a.astra_aware and len(dims) == 1 and 'aware' not in entry:
                    if op == 'all-to-all' and theirs_alg == 'ring' and dims[0][1] > 64:
                        entry['aware'] = {'error': 'not run'}
                    else:
                        entry['aware'] = run_astra(a.astra_aware, a.work, key + ' aware', dims, op, theirs_alg, size)
                cache[key] = entry
                with open(cache_path, 'w') as f:
                    json.dump(cache, f, indent=1)
                ratio = (entry['ours']['s'] / entry['theirs']['s']
                         if 's' in entry['ours'] and 's' in entry['theirs'] else None)
                aware = entry.get('aware', {'error': ''})
                rows.append([label, op, size_name, f'{ours_alg} / {theirs_alg}', fmt_time(entry['ours']),
                             fmt_time(entry['theirs']), f'{ratio:.3f}' if ratio else '—', fmt_time(aware)])
                print('\t'.join(rows[-1]), file=sys.stderr, flush=True)
    header = ['network', 'op', 'bytes', 'algorithm (ours / theirs)', 'ours', 'ASTRA-sim', 'ours / theirs',
              'ASTRA-sim congestion-aware']
    if a.markdown:
        print('| ' + ' | '.join(header) + ' |')
        print('|' + '---|' * 3 + '---|' + '---:|' * 4)
        for r in rows:
            print('| ' + ' | '.join(r) + ' |')
    else:
        print('\t'.join(header))
        for r in rows:
            print('\t'.join(r))
    for key, entry in cache.items():
        for side in ('ours', 'theirs', 'aware'):
            if 'error' in entry.get(side, {}) and entry[side]['error']:
                print(f'{key} ({side}): {entry[side]["error"]}', file=sys.stderr)


if __name__ == '__main__':
    main()
