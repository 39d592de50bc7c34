"""The fields of each GPU job, read from two independent printers (tests/gdb/gpu_trace_test.py):
malibu's `--gpu-trace jobs` (tools/job_print.c) and Mesa's pandecode (PAN_MESA_DEBUG=trace in the
guest, src/panfrost/lib/genxml/decode_jm.c).  Both become one list of jobs, each a dict of
normalised fields (addresses as ints, enum names lower-case with '_'), so a field that one side
decodes differently shows as a differing value.

Encodings the two print differently, normalised here: pandecode prints `Instance Size` decoded
(a padded count) where malibu prints the stored bits then the count in parentheses, and
`WLS Instances` as 1 << the stored log2 (malibu prints the stored value), a UBO
as `ubuf_N[bytes] = address` (malibu: entries and pointer; bytes = entries x 16, and 0 for a null
pointer).  Not compared: the job header's exception status and code (pandecode reads the header
after the job ran, malibu when the chain starts)."""
import re


def _int(v):
    v = v.strip()
    if v in ("true", "false"):
        return v == "true"
    return int(v, 0)


def _padded(v):
    """malibu's 'padded' count: the stored bits, then the count they encode in parentheses."""
    m = re.match(r"\s*\d+ \((\d+)\)$", v)
    return int(m.group(1)) if m else _int(v)


def _enum(v):
    return v.strip().lower().replace(" ", "_")


HEADER = {"type": _enum, "is_64b": _int, "barrier": _int, "invalidate_cache": _int, "suppress_prefetch": _int,
          "enable_texture_mapper": _int, "relax_dependency_1": _int, "relax_dependency_2": _int, "index": _int,
          "dependency_1": _int, "dependency_2": _int, "next": _int}
WRITE_VALUE = {"address": _int, "type": _enum, "immediate": _int}
INVOCATION = ["invocations", "size_y_shift", "size_z_shift", "workgroups_x_shift", "workgroups_y_shift",
              "workgroups_z_shift", "thread_group_split"]
DRAW = ["four_components_per_vertex", "draw_descriptor_is_64b", "instance_size", "instance_primitive_size",
        "offset_start", "primitive_index_base", "position", "uniform_buffers", "textures", "samplers",
        "push_uniforms", "state", "attribute_buffers", "attributes", "varying_buffers", "varyings", "viewport",
        "occlusion", "thread_storage"]
STATE = ["shader", "sampler_count", "texture_count", "attribute_count", "varying_count", "uniform_buffer_count",
         "shader_contains_barrier", "uniform_count"]
PRELOAD = ["pc", "local_invocation_xy", "local_invocation_z", "work_group_x", "work_group_y", "work_group_z",
           "global_invocation_x", "global_invocation_y", "global_invocation_z"]
STORAGE = ["tls_size", "tls_initial_stack_pointer_offset", "wls_instances", "wls_size_base", "wls_size_scale",
           "tls_base_pointer", "wls_base_pointer"]


# ---- malibu: "gpu: job header 0 @ 0xVA (32 bytes):", "  key = value", nested by indentation

def malibu_jobs(text):
    jobs, job, stack = [], None, []
    for line in text.splitlines():
        if not line.startswith("gpu: ") or line.startswith("gpu: =="):
            continue
        line = line[5:]
        ind = len(line) - len(line.lstrip(" "))
        m = re.match(r" *(.+?)(?: (\d+))? @ 0x([0-9a-f]+) \((\d+) bytes\):$", line)
        if m:
            name, va, size = m.group(1), int(m.group(3), 16), int(m.group(4))
            if name == "job header":
                job = {"head": va, "sections": []}
                jobs.append(job)
                stack = []
            while stack and stack[-1][0] >= ind:
                stack.pop()
            sec = {"name": name, "va": va, "size": size, "fields": {}}
            job["sections"].append(sec)
            stack.append((ind, sec))
            continue
        m = re.match(r" *(\w+) = (.*)$", line)
        if m and job:
            while stack and stack[-1][0] >= ind:
                stack.pop()
            if stack:
                stack[-1][1]["fields"][m.group(1)] = m.group(2)
            continue
        m = re.match(r" *\(local size (\d+) x (\d+) x (\d+), workgroups (\d+) x (\d+) x (\d+)\)$", line)
        if m and job:
            job["grid"] = tuple(int(x) for x in m.groups())
    return [_malibu_job(j) for j in jobs]


def _malibu_job(j):
    secs = {}
    for s in j["sections"]:
        secs.setdefault(s["name"], []).append(s)
    one = lambda name: secs[name][0]["fields"] if name in secs else None
    h = one("job header")
    out = {"head": j["head"]}
    out.update({k: f(h[k]) for k, f in HEADER.items()})
    if one("write value"):
        out["write_value"] = {k: f(one("write value")[k]) for k, f in WRITE_VALUE.items()}
    if one("compute payload"):
        c = one("compute payload")
        out["invocation"] = {k: _int(c[k]) for k in INVOCATION}
        out["job_task_split"] = _int(c["job_task_split"])
        out["grid"] = j.get("grid")
    if one("draw"):
        d = {k: (_padded if k.startswith("instance_") else _int)(one("draw")[k]) for k in DRAW}
        out["draw"] = d
    if one("renderer state"):
        r = one("renderer state")
        out["state"] = {k: _int(r[k]) for k in STATE}
        out["preload"] = {k: _int(r["preload_" + k]) for k in PRELOAD}
    if "shader" in secs:
        out["shaders"] = [(s["va"], s["size"]) for s in secs["shader"]]
    if one("local storage"):
        t = {k: _int(one("local storage")[k]) for k in STORAGE}
        t["wls_instances"] = 1 << t["wls_instances"]     # stored as log2
        out["local_storage"] = t
    if "uniform buffer" in secs:
        out["ubufs"] = []
        for s in secs["uniform buffer"]:
            ptr = _int(s["fields"]["pointer"])
            out["ubufs"].append((ptr, _int(s["fields"]["entries"]) * 16 if ptr else 0))
    return out


# ---- pandecode: "Job Header (VA):", "Key: value" groups by indentation, a few free-form lines

def _key(k):
    return re.sub(r"[^a-z0-9]+", "_", k.strip().lower()).strip("_")


def pandecode_jobs(text):
    jobs, cur, stack, in_shader = [], None, [], False
    for line in text.splitlines():
        m = re.match(r"Job Header \(([0-9a-f]+)\):$", line)
        if m:
            cur = {"head": int(m.group(1), 16), "f": {}, "shaders": [], "ubufs": []}
            jobs.append(cur)
            stack, in_shader = [], False
            continue
        if cur is None:
            continue
        m = re.match(r"Shader 0x[0-9a-f]+ \(GPU VA ([0-9a-f]+)\) sz (\d+)$", line.strip())
        if m:
            cur["shaders"].append((int(m.group(1), 16), int(m.group(2))))
            in_shader = True                 # the disassembly runs until the renderer state
            continue
        if in_shader:
            if line != "State:":
                continue
            in_shader = False
        m = re.match(r" *Invocation \((\d+), (\d+), (\d+)\) x \((\d+), (\d+), (\d+)\)$", line)
        if m:
            cur["grid"] = tuple(int(x) for x in m.groups())
            continue
        m = re.match(r" *ubuf_(\d+)\[(\d+)\] = (.*);$", line)
        if m:
            cur["ubufs"].append((_address(m.group(3)), int(m.group(2))))
            continue
        m = re.match(r"( *)([^:]+):(.*)$", line)
        if not m or line.lstrip().startswith("//"):
            continue
        ind, key, val = len(m.group(1)), _key(m.group(2)), m.group(3).strip()
        while stack and stack[-1][0] >= ind:
            stack.pop()
        if not val:
            stack.append((ind, key))
        else:
            cur["f"]["/".join([k for _, k in stack] + [key])] = val
    return [_pandecode_job(j) for j in jobs]


def _address(ref):
    """pandecode names a pointer 'memory_VA + OFFSET' inside a known mapping, else '0xVA'."""
    m = re.match(r"memory_([0-9a-f]+) \+ (\d+)$", ref.strip())
    return int(m.group(1), 16) + int(m.group(2)) if m else int(ref, 16)


def _pandecode_job(j):
    f = j["f"]
    out = {"head": j["head"]}
    # the header's fields are the job's top-level keys (pandecode prints no group around them)
    out.update({k: conv(f[k]) for k, conv in HEADER.items()})
    if "write_value_payload/address" in f:
        out["write_value"] = {"address": _int(f["write_value_payload/address"]),
                              "type": _enum(f["write_value_payload/type"]),
                              "immediate": _int(f["write_value_payload/immediate_value"])}
    p = "vertex_job_payload/"
    if p + "invocation/invocations" in f:
        out["invocation"] = {k: _int(f[p + "invocation/" + k]) for k in INVOCATION}
        out["job_task_split"] = _int(f[p + "vertex_job_parameters/job_task_split"])
        out["grid"] = j.get("grid")
        d = {k: _int(f[p + "draw/" + k]) for k in DRAW}
        out["draw"] = d
    if "state/shader/shader" in f:
        s = {k: _int(f["state/shader/" + k]) for k in ("shader", "sampler_count", "texture_count", "attribute_count",
                                                       "varying_count")}
        s["uniform_buffer_count"] = _int(f["state/properties/uniform_buffer_count"])
        s["shader_contains_barrier"] = _int(f["state/properties/shader_contains_barrier"])
        s["uniform_count"] = _int(f["state/preload/uniform_count"])
        out["state"] = s
        out["preload"] = {k: _int(f["state/preload/compute/" + k]) for k in PRELOAD}
    if j["shaders"]:
        out["shaders"] = j["shaders"]
    if "local_storage/tls_size" in f:
        out["local_storage"] = {k: _int(f["local_storage/" + k]) for k in STORAGE}
    if j["ubufs"]:
        out["ubufs"] = j["ubufs"]
    return out


def compare(live, mesa):
    """The differences between two job lists, as lines naming the job and the field."""
    diffs = []
    if len(live) != len(mesa):
        diffs.append("%d jobs in the trace, %d in pandecode's" % (len(live), len(mesa)))
    for i, (a, b) in enumerate(zip(live, mesa)):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                diffs.append("job %d @ 0x%x: %s: trace %s, pandecode %s" % (i, a["head"], k, a.get(k), b.get(k)))
    return diffs
