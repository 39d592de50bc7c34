#!/usr/bin/env python3
"""malibu-report: render a malibu --stats report (schema malibu-stats/2, emu/stats/SCHEMA.md;
malibu-stats/1 is read too) as one HTML page with inline SVG charts.

    malibu-report FILE.json -o DIR      writes DIR/index.html and DIR/kernelN.dot (+ .svg)
        [--timeline TIMELINE.json]      with the timeline malibu --timeline wrote, as SVG

Kernels are programs identified by their code (two shaders run at the same GPU address are two
kernels).  Per kernel: the jobs that ran it, instruction mix (warp instructions by class), clause-size histogram (executions and
static clauses), data-access breakdown, and the control-flow graph with per-edge thread counts
(divergent clauses in red).  With the guest channel (docs/guest-channel.md): kernels by the
names the guest gave their launches, one row per launch beneath, and per region of interest (and
stats dump) what ran between its begin and end only.  The CFG is rendered by Graphviz `dot` when it is installed, else
by a built-in layered layout; the DOT source is always written next to the page and embedded."""

import argparse
import html
import json
import os
import shutil
import subprocess
import sys

SCHEMAS = ("malibu-stats/2", "malibu-stats/1")

CLASS_GROUPS = [   # (label, classes, colour)
    ("FMA arithmetic", ["fma_arith"], "#4e79a7"),
    ("ADD arithmetic", ["add_arith"], "#76b7b2"),
    ("conversions", ["convert"], "#59a14f"),
    ("control flow", ["control"], "#e15759"),
    ("global load/store", ["load_global", "store_global"], "#f28e2b"),
    ("local load/store", ["load_local", "store_local"], "#edc948"),
    ("uniform loads", ["load_uniform"], "#b07aa1"),
    ("stack load/store", ["load_stack", "store_stack"], "#9c755f"),
    ("atomics", ["atomic"], "#ff9da7"),
    ("barriers", ["barrier"], "#d37295"),
    ("texture/varying", ["texture", "varying"], "#8cd17d"),
    ("other messages", ["other_message"], "#86bcb6"),
    ("empty slots (NOP)", ["nop_fma", "nop_add"], "#bab0ac"),
    ("invalid", ["invalid"], "#333333"),
]

DATA_GROUPS = [
    ("temporaries (T/T0/T1)", ["temp"], "#59a14f"),
    ("register reads", ["reg_read"], "#4e79a7"),
    ("register writes", ["reg_write"], "#a0cbe8"),
    ("staging reads/writes", ["staging_read", "staging_write"], "#76b7b2"),
    ("uniforms (FAU)", ["fau_uniform"], "#b07aa1"),
    ("constants (FAU)", ["fau_const"], "#edc948"),
    ("special FAU", ["fau_special"], "#bab0ac"),
]

MEM_GROUPS = [
    ("global memory", ["global_bytes"], "#f28e2b"),
    ("local memory", ["local_bytes"], "#edc948"),
    ("uniform buffers", ["uniform_bytes"], "#b07aa1"),
    ("stack (TLS)", ["stack_bytes"], "#9c755f"),
]


def esc(s):
    return html.escape(str(s), quote=True)


def fmt(n):
    n = int(n)
    if n >= 10_000_000:
        return "%.1fM" % (n / 1e6)
    if n >= 10_000:
        return "%.1fk" % (n / 1e3)
    return str(n)


def grouped(counts, groups, level):
    out = []
    for label, keys, colour in groups:
        v = sum(int(counts.get(k, {}).get(level, 0)) for k in keys)
        out.append((label, v, colour))
    return out


def bar_chart(title, items, unit=""):
    """Horizontal bar chart: items = [(label, value, colour)]; zero rows are dropped."""
    items = [i for i in items if i[1] > 0]
    if not items:
        return '<p class="empty">%s: nothing recorded</p>' % esc(title)
    total = sum(v for _, v, _ in items)
    vmax = max(v for _, v, _ in items)
    row, lw, bw = 22, 170, 330
    h = 30 + row * len(items)
    w = lw + bw + 140
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" '
             'viewBox="0 0 %d %d" role="img" aria-label="%s">' % (w, h, w, h, esc(title)),
             '<text x="0" y="16" class="title">%s</text>' % esc(title)]
    for i, (label, v, colour) in enumerate(items):
        y = 26 + i * row
        bl = max(1.0, bw * v / vmax)
        parts.append('<text x="%d" y="%d" class="label" text-anchor="end">%s</text>' % (lw - 6, y + 14, esc(label)))
        parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %d</title></rect>'
                     % (lw, y + 2, bl, row - 6, colour, esc(label), v))
        parts.append('<text x="%.1f" y="%d" class="value">%s%s (%.1f%%)</text>'
                     % (lw + bl + 5, y + 14, fmt(v), unit, 100.0 * v / total))
    parts.append('</svg>')
    return "\n".join(parts)


def pct_chart(title, items):
    """Horizontal bars on a 0-100 % scale (zero rows kept: a branch that never diverged)."""
    row, lw, bw = 22, 190, 250
    h = 30 + row * len(items)
    w = lw + bw + 70
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" '
             'viewBox="0 0 %d %d" role="img" aria-label="%s">' % (w, h, w, h, esc(title)),
             '<text x="0" y="16" class="title">%s</text>' % esc(title)]
    for i, (label, v, colour) in enumerate(items):
        y = 26 + i * row
        parts.append('<text x="%d" y="%d" class="label" text-anchor="end">%s</text>' % (lw - 6, y + 14, esc(label)))
        parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#eee"/>' % (lw, y + 2, bw, row - 6))
        parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %.1f%%</title></rect>'
                     % (lw, y + 2, bw * v / 100.0, row - 6, colour, esc(label), v))
        parts.append('<text x="%d" y="%d" class="value">%.1f%%</text>' % (lw + bw + 5, y + 14, v))
    parts.append('</svg>')
    return "\n".join(parts)


def histogram(title, sizes):
    """Clause-size histogram (1..8 tuples): bars = executions, dots = static clauses."""
    ex = [int(sizes.get(str(s), {}).get("executions", 0)) for s in range(1, 9)]
    st = [int(sizes.get(str(s), {}).get("clauses", 0)) for s in range(1, 9)]
    if not any(ex):
        return '<p class="empty">%s: nothing recorded</p>' % esc(title)
    w, h, left, bottom, top = 440, 252, 50, 52, 40
    pw, ph = w - left - 10, h - top - bottom
    emax = max(ex)
    bw = pw / 8
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" '
             'viewBox="0 0 %d %d" role="img" aria-label="%s">' % (w, h, w, h, esc(title)),
             '<text x="0" y="16" class="title">%s</text>' % esc(title),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" class="axis"/>' % (left, top + ph, left + pw, top + ph)]
    for i in range(8):
        x = left + i * bw
        bh = ph * ex[i] / emax if emax else 0
        parts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#4e79a7">'
                     '<title>%d tuples: %d executions, %d clauses</title></rect>'
                     % (x + 4, top + ph - bh, bw - 8, bh, i + 1, ex[i], st[i]))
        if ex[i]:
            parts.append('<text x="%.1f" y="%.1f" class="value" text-anchor="middle">%s</text>'
                         % (x + bw / 2, top + ph - bh - 4, fmt(ex[i])))
        parts.append('<text x="%.1f" y="%d" class="label" text-anchor="middle">%d</text>'
                     % (x + bw / 2, top + ph + 15, i + 1))
        if st[i]:
            parts.append('<text x="%.1f" y="%d" class="note" text-anchor="middle">%d cl.</text>'
                         % (x + bw / 2, top + ph + 29, st[i]))
    parts.append('<text x="%d" y="%d" class="note">tuples per clause (bars: executions; '
                 'below: static clauses)</text>' % (left, h - 1))
    parts.append('</svg>')
    return "\n".join(parts)


def cfg_svg(kernel):
    """Built-in CFG layout: clauses top to bottom in pc order; fall-through/forward edges on the
    right, backward edges (loops) on the left; edge labels = threads (warps)."""
    clauses = kernel["clauses"]
    if not clauses:
        return ""
    idx = {c["pc"]: i for i, c in enumerate(clauses)}
    nw, nh, gap, x0 = 250, 46, 34, 150
    has_exit = any(e["to"] == "exit" for c in clauses for e in c["edges"])
    n = len(clauses) + (1 if has_exit else 0)
    edges = []
    for c in clauses:
        for e in c["edges"]:
            to = e["to"]
            j = idx.get(to) if isinstance(to, int) else (len(clauses) if to == "exit" else None)
            edges.append((idx[c["pc"]], j, e, c))
    nright = sum(1 for s, t, _, _ in edges if t is not None and t > s + 1)
    nleft = sum(1 for s, t, _, _ in edges if t is not None and t <= s)
    w = x0 + nw + 60 + 60 * nright + 120
    x0 = 40 + 50 * nleft + 60
    w = x0 + nw + 80 + 55 * nright + 150
    h = 20 + n * (nh + gap)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="cfg" width="%d" height="%d" viewBox="0 0 %d %d">'
             % (w, h, w, h),
             '<defs><marker id="arr" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
             'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker>'
             '<marker id="arrr" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
             'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>']

    def ny(i):
        return 10 + i * (nh + gap)

    for i, c in enumerate(clauses):
        div = c["divergent_executions"] > 0
        col = "#c0392b" if div else "#333"
        fill = "#fdecea" if div else "#f4f6fa"
        parts.append('<rect x="%d" y="%d" width="%d" height="%d" rx="5" fill="%s" stroke="%s"/>'
                     % (x0, ny(i), nw, nh, fill, col))
        parts.append('<text x="%d" y="%d" class="node" fill="%s">clause %d: %d tuples, %d instrs</text>'
                     % (x0 + 8, ny(i) + 17, col, c["pc"], c["tuples"], c["instructions"]))
        extra = ", %d/%d divergent" % (c["divergent_executions"], c["executions"]) if div else ""
        parts.append('<text x="%d" y="%d" class="node2" fill="%s">%s execs, %s threads%s</text>'
                     % (x0 + 8, ny(i) + 35, col, fmt(c["executions"]), fmt(c["active_lanes"]), extra))
    if has_exit:
        i = len(clauses)
        parts.append('<ellipse cx="%d" cy="%d" rx="40" ry="16" fill="#fff" stroke="#333"/>'
                     % (x0 + nw / 2, ny(i) + nh / 2))
        parts.append('<text x="%d" y="%d" class="node" text-anchor="middle">exit</text>'
                     % (x0 + nw / 2, ny(i) + nh / 2 + 5))
    ri = li = 0
    for s, t, e, c in edges:
        red = c["divergent_executions"] > 0 and len(c["edges"]) > 1
        stroke = "#c0392b" if red else "#555"
        mk = "arrr" if red else "arr"
        label = "%s thr (%s w)" % (fmt(e["threads"]), fmt(e["warps"]))
        if t is None:
            parts.append('<text x="%d" y="%d" class="elabel">-&gt; %s: %s</text>'
                         % (x0 + nw + 8, ny(s) + nh - 4, esc(e["to"]), esc(label)))
            continue
        if t == s + 1:       # fall-through / next: straight down
            xm = x0 + nw / 2 - 30 + 60 * (0 if not red else 1)
            parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="1.6" marker-end="url(#%s)"/>'
                         % (xm, ny(s) + nh, xm, ny(t) - 1, stroke, mk))
            parts.append('<text x="%.1f" y="%d" class="elabel" fill="%s">%s</text>'
                         % (xm + 6, ny(s) + nh + gap / 2 + 4, stroke, esc(label)))
        elif t > s + 1:      # forward jump: right side
            ri += 1
            xr = x0 + nw + 25 + 55 * (ri - 1)
            y1, y2 = ny(s) + nh / 2, ny(t) + nh / 2
            parts.append('<path d="M%d,%.1f H%.1f V%.1f H%d" fill="none" stroke="%s" stroke-width="1.6" marker-end="url(#%s)"/>'
                         % (x0 + nw, y1, xr, y2, x0 + nw + 1, stroke, mk))
            parts.append('<text x="%.1f" y="%.1f" class="elabel" fill="%s">%s</text>'
                         % (xr + 4, (y1 + y2) / 2, stroke, esc(label)))
        else:                # backward edge (loop): left side
            li += 1
            xl = x0 - 25 - 50 * (li - 1)
            y1, y2 = ny(s) + nh / 2 + 6, ny(t) + nh / 2 - 6
            parts.append('<path d="M%d,%.1f H%.1f V%.1f H%d" fill="none" stroke="%s" stroke-width="1.6" '
                         'stroke-dasharray="5,3" marker-end="url(#%s)"/>' % (x0, y1, xl, y2, x0 - 1, stroke, mk))
            parts.append('<text x="%.1f" y="%.1f" class="elabel" fill="%s" text-anchor="end">%s</text>'
                         % (xl - 4, (y1 + y2) / 2, stroke, esc(label)))
    parts.append('</svg>')
    return "\n".join(parts)


def render_dot(dot_path):
    """SVG text from Graphviz, or None when dot is missing or fails."""
    exe = shutil.which("dot")
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "-Tsvg", dot_path], capture_output=True, timeout=60, check=True).stdout
    except (subprocess.SubprocessError, OSError):
        return None
    svg = out.decode("utf-8", "replace")
    i = svg.find("<svg")
    return svg[i:] if i >= 0 else None


def table(rows, head):
    out = ['<table><tr>%s</tr>' % "".join("<th>%s</th>" % esc(h) for h in head)]
    for r in rows:
        out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % esc(c) for c in r))
    out.append("</table>")
    return "\n".join(out)


def kernel_title(k):
    """Name plus the first 8 hex digits of the code hash: names repeat when programs share a VA."""
    return k["name"] + (" [code %s]" % k["code_hash"][:8] if "code_hash" in k else "")


def kernel_section(k, outdir, level):
    t = k["totals"]
    parts = ['<section class="kernel" id="k%d"><h2>Kernel %d: %s</h2>' % (k["id"], k["id"], esc(kernel_title(k)))]
    if "code_hash" in k:
        ids = k["job_ids"]
        parts.append('<p class="facts">Code %s: %d clauses, %d bytes (the clauses its jobs ran); first loaded at %s; '
                     '%d job%s%s.</p>' % (
                         esc(k["code_hash"]), k["code_clauses"], k["code_bytes"],
                         "GPU VA %#x, address space %d" % (k["shader_va"], k["as"]) if k["shader_va"] is not None
                         else "an unknown address", k["jobs"], "" if k["jobs"] == 1 else "s",
                         (" (job%s %s)" % ("" if len(ids) == 1 else "s", ", ".join(str(i) for i in ids[:40])
                                            + (", ..." if len(ids) > 40 else ""))) if ids else ""))
    div = t["divergence"]
    parts.append('<p class="facts">%s clauses, %s clause executions (%s thread), %s warp instructions '
                 '(%s thread), %d lanes/warp; %s of %s branch-clause executions divergent, %s partial-warp '
                 'executions.</p>' % (fmt(t["clauses"]), fmt(t["clause_executions"]), fmt(t["thread_clause_executions"]),
                                     fmt(t["warp_instructions"]), fmt(t["thread_instructions"]), k["lanes_per_warp"],
                                     fmt(div["divergent_executions"]), fmt(div["branch_clause_executions"]),
                                     fmt(div["partial_warp_executions"])))
    parts.append('<div class="charts">')
    parts.append(bar_chart("Instruction mix (%s instructions)" % level, grouped(t["instruction_mix"], CLASS_GROUPS, level)))
    parts.append(histogram("Clause sizes", t["clause_sizes"]))
    parts.append(bar_chart("Operand accesses (%s)" % level, grouped(t["data"], DATA_GROUPS, level)))
    # bytes: per-lane sizes x active lanes = what the threads moved
    parts.append(bar_chart("Memory traffic (bytes moved by all threads)", grouped(t["data"], MEM_GROUPS, "thread"), " B"))
    br = [c for c in k["clauses"] if c["branch"] or c["divergent_executions"]]
    if br:
        items = [("clause %d (%s/%s)" % (c["pc"], fmt(c["divergent_executions"]), fmt(c["executions"])),
                  100.0 * c["divergent_executions"] / c["executions"] if c["executions"] else 0.0,
                  "#e15759") for c in br]
        parts.append(pct_chart("Divergence per branch clause (% of executions)", items))
    parts.append('</div>')
    dot_name = "kernel%d.dot" % k["id"]
    dot_path = os.path.join(outdir, dot_name)
    with open(dot_path, "w") as f:
        f.write(k.get("cfg_dot") or "digraph {}\n")
    svg = render_dot(dot_path)
    parts.append('<h3>Control flow and divergence</h3>')
    if svg:
        with open(os.path.join(outdir, "kernel%d.svg" % k["id"]), "w") as f:
            f.write(svg)
        parts.append('<div class="cfgbox">%s</div>' % svg)
        parts.append('<p class="note">Rendered by Graphviz from <a href="%s">%s</a>.</p>' % (dot_name, dot_name))
    else:
        parts.append('<div class="cfgbox">%s</div>' % cfg_svg(k))
        parts.append('<p class="note">Graphviz <code>dot</code> not found: built-in layout (dashed = loop edges, '
                     'red = clause where warps diverged). DOT source: <a href="%s">%s</a></p>' % (dot_name, dot_name))
    parts.append('<details><summary>DOT source</summary><pre>%s</pre></details>' % esc(k.get("cfg_dot") or ""))
    rows = []
    for c in k["clauses"]:
        edges = ", ".join("%s:%s" % (e["to"], fmt(e["threads"])) for e in c["edges"])
        rows.append([c["pc"], c["tuples"], c["instructions"], c["executions"], c["active_lanes"],
                     c["divergent_executions"], c["partial_warp_executions"],
                     " ".join("%s=%d" % (a, b) for a, b in sorted(c["classes"].items())), edges])
    parts.append('<details><summary>Clauses</summary>%s</details>' % table(
        rows, ["pc", "tuples", "instrs", "execs", "threads", "divergent", "partial", "classes", "edges (to:threads)"]))
    parts.append('</section>')
    return "\n".join(parts)


CSS = """
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 22px; } h2 { font-size: 18px; border-bottom: 1px solid #ccc; padding-bottom: 4px; }
h3 { font-size: 15px; }
table { border-collapse: collapse; font-size: 12px; margin: 6px 0; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
tr.name td { font-weight: bold; background: #f4f4f4; }
tr.launch td:first-child { padding-left: 2em; text-align: left; }
tr.name td:first-child { text-align: left; }
section.region { border-left: 3px solid #4e79a7; padding-left: 8px; }
th { background: #eef; }
.charts { display: flex; flex-wrap: wrap; gap: 18px 28px; }
svg.chart text.title { font-size: 13px; font-weight: bold; }
svg text { font-family: sans-serif; }
svg .label { font-size: 12px; } svg .value { font-size: 11px; fill: #333; }
svg .note { font-size: 10px; fill: #666; } svg .axis { stroke: #888; }
svg.cfg .node { font-size: 12px; font-family: monospace; } svg.cfg .node2 { font-size: 11px; font-family: monospace; }
svg.cfg .elabel { font-size: 11px; }
.cfgbox { overflow-x: auto; border: 1px solid #ddd; padding: 6px; background: #fff; }
p.note, p.empty { color: #666; font-size: 12px; } p.facts { font-size: 13px; }
p.warn { background: #fdecea; border: 1px solid #c0392b; padding: 6px; font-size: 13px; }
pre { font-size: 11px; background: #f6f6f6; padding: 6px; overflow-x: auto; }
svg.timeline text.title { font-size: 13px; font-weight: bold; } svg.timeline .jobname { font-size: 11px; fill: #fff; }
svg.timeline .regionname { font-size: 11px; fill: #222; }
"""


# ---- timeline (malibu --timeline FILE.json, emu/stats/timeline.h) ----------------------------------

# colours of the timeline only (none of the charts uses them: a screenshot test counts their pixels)
TL_STATE_COLOURS = {"running": "#2ca02c", "idle (WFI)": "#dcdcdc", "off": None}   # exceptions: TL_EXC_COLOUR
TL_EXC_COLOUR = "#ff7f0e"
TL_KERNEL_COLOURS = ["#1f77b4", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]
TL_OTHER_JOB_COLOUR = "#c7c7c7"    # jobs without a shader (WRITE_VALUE, NULL, CACHE_FLUSH)
TL_WIDTH, TL_LANE, TL_LABEL = 940, 22, 150
TL_MAX_JOBS = 5000                 # job rectangles drawn per view (the rest are counted)
TL_REGION_ROWS = 4                 # nesting levels of regions drawn (deeper ones on the last row)


def tl_region_depths(spans):
    """each region span's nesting depth in its lane (spans nest: the checker's rule)"""
    depth, ends = {}, []
    for e in sorted(spans, key=lambda e: (e["ts"], -e["dur"])):
        while ends and ends[-1] <= e["ts"]:
            ends.pop()
        depth[id(e)] = len(ends)
        ends.append(e["ts"] + e["dur"])
    return depth


def tl_fmt_us(us):
    """a duration in µs, in the unit that reads best"""
    if us >= 1e6:
        return "%.3g s" % (us / 1e6)
    if us >= 1e3:
        return "%.3g ms" % (us / 1e3)
    return "%.3g µs" % us


def tl_window(jobs, everything):
    """The span of the GPU's jobs with a margin (the boot before them would squeeze them to
    nothing), or of everything when the GPU ran no job."""
    evs = jobs or everything
    if not evs:
        return 0.0, 1.0
    t0 = min(e["ts"] for e in evs)
    t1 = max(e["ts"] + e.get("dur", 0) for e in evs)
    if t1 <= t0:
        t1 = t0 + 1.0
    m = (t1 - t0) * 0.05
    return t0 - m, t1 + m


def tl_lane_spans(spans, t0, t1, colour_of):
    """A lane's spans clipped to [t0, t1], as at most one rectangle per pixel column run: each
    column shows the state that covers most of it, so a long boot stays a small SVG."""
    scale = TL_WIDTH / (t1 - t0)
    cols = [dict() for _ in range(TL_WIDTH)]
    for e in spans:
        a, b = max(e["ts"], t0), min(e["ts"] + e["dur"], t1)
        if b < a:
            continue
        x0, x1 = int((a - t0) * scale), int((b - t0) * scale)
        for x in range(max(x0, 0), min(x1, TL_WIDTH - 1) + 1):
            lo, hi = max(a, t0 + x / scale), min(b, t0 + (x + 1) / scale)
            if hi >= lo:
                cols[x][e["name"]] = cols[x].get(e["name"], 0) + (hi - lo) + 1e-9
    runs = []
    for x, c in enumerate(cols):
        name = max(c, key=c.get) if c else None
        if runs and runs[-1][2] == name and runs[-1][1] == x:
            runs[-1][1] = x + 1
        else:
            runs.append([x, x + 1, name])
    return [(x0, x1, n, colour_of(n)) for x0, x1, n in runs if n and colour_of(n)]   # off: not drawn


def tl_view_svg(title, evs, names):
    """One clock's view: GPU job slots (jobs named by kernel), GPU interrupts, per vCPU its state
    and its regions, over the window of the GPU's work."""
    jobs = [e for e in evs if e.get("cat") == "gpu" and e["ph"] == "X"]
    t0, t1 = tl_window(jobs, [e for e in evs if e["ph"] in "Xi"])
    scale = TL_WIDTH / (t1 - t0)
    kernels = []
    for j in jobs:
        if "shader" in j.get("args", {}) and j["name"] not in kernels:
            kernels.append(j["name"])
    kcolour = {k: TL_KERNEL_COLOURS[i % len(TL_KERNEL_COLOURS)] for i, k in enumerate(kernels)}
    tracks = sorted({e["tid"] for e in evs if e["ph"] != "M"})
    lanes = [t for t in tracks if t < 10 or t == 10] + [t for t in tracks if t >= 100]
    lanes = sorted(set(lanes), key=lambda t: (0 if t < 10 else 1 if t == 10 else 2, t % 100, t))
    legend_h = 20 * (1 + (len(kernels) + 3) // 4)
    rows, depths = {}, {}   # a regions lane gets a row per nesting level
    for tid in lanes:
        if tid >= 200:
            depths[tid] = tl_region_depths([e for e in evs if e.get("tid") == tid and e["ph"] == "X"])
            rows[tid] = min(max(list(depths[tid].values()) + [0]) + 1, TL_REGION_ROWS)
    lane_y, y = {}, 26
    for tid in lanes:
        lane_y[tid] = y
        y += TL_LANE * rows.get(tid, 1)
    lanes_end = y
    h = lanes_end + 30 + legend_h
    w = TL_LABEL + TL_WIDTH + 40
    p = ['<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="%d" height="%d" viewBox="0 0 %d %d" '
         'role="img" aria-label="%s">' % (w, h, w, h, esc(title)),
         '<text x="0" y="16" class="title">%s: %s from %s</text>' % (esc(title), tl_fmt_us(t1 - t0), tl_fmt_us(t0))]
    for tid in lanes:
        y = lane_y[tid]
        bottom = y + TL_LANE * rows.get(tid, 1) - 1
        p.append('<text x="%d" y="%d" class="label" text-anchor="end">%s</text>'
                 % (TL_LABEL - 6, y + 15, esc(names.get(tid, "track %d" % tid))))
        p.append('<line x1="%d" x2="%d" y1="%d" y2="%d" class="axis" stroke-width="0.3"/>'
                 % (TL_LABEL, TL_LABEL + TL_WIDTH, bottom, bottom))
        lane = [e for e in evs if e.get("tid") == tid and e["ph"] != "M"]
        if tid < 10:   # job slot
            drawn = 0
            for j in lane:
                if j["ph"] != "X" or j["ts"] + j["dur"] < t0 or j["ts"] > t1:
                    continue
                if drawn == TL_MAX_JOBS:
                    p.append('<text x="%d" y="%d" class="note">+ more jobs not drawn</text>' % (TL_LABEL + 4, y + 15))
                    break
                drawn += 1
                x = TL_LABEL + round((j["ts"] - t0) * scale)   # whole pixels: a short job stays visible
                bw = max(round(j["dur"] * scale), 1)
                a = j.get("args", {})
                tip = "%s (%s) %s%s, status %s" % (j["name"], a.get("type", "?"), tl_fmt_us(j["dur"]),
                                                  ", workgroups %s" % "x".join(map(str, a["workgroups"]))
                                                  if "workgroups" in a else "", a.get("status", "?"))
                p.append('<rect class="job" x="%d" y="%d" width="%d" height="%d" fill="%s" shape-rendering="crispEdges">'
                         '<title>%s</title></rect>'
                         % (x, y + 2, bw, TL_LANE - 5, kcolour.get(j["name"], TL_OTHER_JOB_COLOUR), esc(tip)))
                if bw > 7 * len(j["name"]):
                    p.append('<text x="%d" y="%d" class="jobname">%s</text>' % (x + 3, y + 15, esc(j["name"])))
        elif tid == 10:   # GPU interrupts
            for e in lane:
                if t0 <= e["ts"] <= t1:
                    x = TL_LABEL + (e["ts"] - t0) * scale
                    p.append('<line class="irq" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#c0392b" stroke-width="1.5">'
                             '<title>%s at %s</title></line>' % (x, x, y + 3, y + TL_LANE - 3, esc(e["name"]),
                                                                 tl_fmt_us(e["ts"])))
        elif tid < 200:   # vCPU state
            spans = [e for e in lane if e["ph"] == "X"]
            for x0, x1, n, c in tl_lane_spans(spans, t0, t1,
                                              lambda n: TL_STATE_COLOURS.get(n, TL_EXC_COLOUR)):
                p.append('<rect class="cpu" x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s</title></rect>'
                         % (TL_LABEL + x0, y + 2, x1 - x0, TL_LANE - 5, c, esc(n)))
        else:   # regions and annotations
            for e in lane:
                if e["ph"] == "X" and e["ts"] <= t1 and e["ts"] + e["dur"] >= t0:
                    a, b = max(e["ts"], t0), min(e["ts"] + e["dur"], t1)
                    x = TL_LABEL + (a - t0) * scale
                    yr = y + TL_LANE * min(depths[tid][id(e)], TL_REGION_ROWS - 1)
                    p.append('<rect class="region" x="%.1f" y="%d" width="%.1f" height="%d" fill="#d37295" '
                             'fill-opacity="0.45" stroke="#d37295"><title>%s</title></rect>'
                             % (x, yr + 2, max((b - a) * scale, 1.0), TL_LANE - 5, esc(e["name"])))
                    p.append('<text x="%.1f" y="%d" class="regionname">%s</text>' % (x + 3, yr + 15, esc(e["name"])))
                elif e["ph"] == "i" and t0 <= e["ts"] <= t1:
                    x = TL_LABEL + (e["ts"] - t0) * scale
                    p.append('<path d="M%.1f %d l4 8 h-8 z" fill="#6b4c9a"><title>%s</title></path>'
                             % (x, y + 4, esc(e["name"])))
    ya = lanes_end + 4
    for k in range(6):
        x = TL_LABEL + TL_WIDTH * k / 5
        p.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" class="axis"/>' % (x, x, ya, ya + 5))
        p.append('<text x="%.1f" y="%d" class="note" text-anchor="middle">+%s</text>'
                 % (x, ya + 16, tl_fmt_us((t1 - t0) * k / 5)))
    yl = ya + 30
    for i, k in enumerate(kernels):
        x, y = TL_LABEL + (i % 4) * 250, yl + (i // 4) * 20
        p.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d" class="label kernel">%s</text>'
                 % (x, y, kcolour[k], x + 16, y + 11, esc(k)))
    y = yl + 20 * ((len(kernels) + 3) // 4)
    for i, (n, c) in enumerate([("vCPU running", TL_STATE_COLOURS["running"]), ("in exception", TL_EXC_COLOUR),
                                ("idle (WFI)", TL_STATE_COLOURS["idle (WFI)"]), ("other GPU job", TL_OTHER_JOB_COLOUR)]):
        x = TL_LABEL + i * 170
        p.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d" class="note">%s</text>'
                 % (x, y, c, x + 16, y + 10, esc(n)))
    p.append('</svg>')
    return "\n".join(p)


def timeline_section(path):
    """The --timeline file drawn per clock view (its processes): the same tracks Perfetto shows."""
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    other = doc.get("otherData", {}) if isinstance(doc, dict) else {}
    parts = ['<section id="timeline"><h2>Timeline</h2>',
             '<p class="note">From %s (open it in Perfetto\'s UI or chrome://tracing for every event). Each view '
             'spans the GPU\'s jobs with a 5%% margin; a vCPU lane shows, per pixel, the state that covers most of '
             'it. Guest time is the board clock (--gpu-time model advances it by the GPU\'s modelled time while '
             'the vCPUs wait); host time is the emulator\'s.</p>' % esc(os.path.basename(path))]
    if other.get("dropped"):
        parts.append('<p class="warn">The timeline kept the newest %d of %d events (--timeline-limit %d): %d older '
                     'events were dropped.</p>' % (other["kept"], other["recorded"], other["limit"], other["dropped"]))
    pids = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            pids[e["pid"]] = e["args"]["name"]
    for pid in sorted(pids):
        names = {e["tid"]: e["args"]["name"] for e in events
                 if e.get("ph") == "M" and e.get("name") == "thread_name" and e["pid"] == pid}
        evs = [e for e in events if e.get("pid") == pid and e.get("ph") in ("X", "i")]
        parts.append('<div class="cfgbox">%s</div>' % tl_view_svg(pids[pid], evs, names))
    parts.append('</section>')
    return "\n".join(parts)


def system_section(r):
    cpu, gpu = r["cpu"], r["gpu"]
    parts = ['<section><h2>System</h2>']
    rows = [["guest instructions", fmt(cpu["instructions"])], ["CPU exceptions", cpu["exceptions"]],
            ["CPU IRQs taken", cpu["irqs"]],
            ["GPU jobs", ", ".join("%s %d" % (k, v) for k, v in gpu["jobs"].items())],
            ["GPU register reads (gpu/job/mmu)", "/".join(str(gpu["registers"]["reads"][b]) for b in ("gpu", "job", "mmu"))],
            ["GPU register writes (gpu/job/mmu)", "/".join(str(gpu["registers"]["writes"][b]) for b in ("gpu", "job", "mmu"))],
            ["GPU IRQs asserted (gpu/job/mmu)", "/".join(str(gpu["irqs"][b]) for b in ("gpu", "job", "mmu"))],
            ["GPU pages touched", "%d (read %d, write %d, execute %d, atomic %d)" % (
                gpu["mmu"]["pages_touched"], gpu["mmu"]["pages_by_access"]["read"], gpu["mmu"]["pages_by_access"]["write"],
                gpu["mmu"]["pages_by_access"]["execute"], gpu["mmu"]["pages_by_access"]["atomic"])]]
    ck = r.get("clock")
    if ck:
        rows.append(["guest clock (--gpu-time %s)" % esc(ck["gpu_time"]),
                     "the CPU waited on the GPU %d times: %.3f ms of host time were %.3f ms of modelled "
                     "GPU time for the guest" % (ck["freezes"], ck["host_ns_skipped"] / 1e6,
                                                 ck["gpu_ns_advanced"] / 1e6)])
        if ck.get("lead_limits"):
            rows.append(["guest clock lead limit",
                         "a busy CPU's clock stopped %d times at the GPU's lead limit" % ck["lead_limits"]])
    parts.append(table(rows, ["", "value"]))
    regs = sorted(gpu["registers"]["by_offset"], key=lambda r: -(r["reads"] + r["writes"]))
    if regs:
        parts.append('<details><summary>GPU registers accessed (%d)</summary>%s</details>' % (len(regs), table(
            [["%#06x" % r["offset"], r["reads"], r["writes"]] for r in regs], ["offset", "reads", "writes"])))
    if len(cpu["cpus"]) > 1:
        parts.append(table([[c["index"], c["instructions"], c["exceptions"], c["irqs"],
                             "%.1f" % (c.get("idle_ns", 0) / 1e6)] for c in cpu["cpus"]],
                           ["vCPU", "instructions", "exceptions", "IRQs", "idle ms"]))
    exc = {}
    for c in cpu["cpus"]:
        for k, v in c.get("exceptions_by_class", {}).items():
            exc[k] = exc.get(k, 0) + v
    if exc:
        parts.append(bar_chart("CPU synchronous exceptions by class (ESR EC)",
                               [(k, v, "#e15759") for k, v in sorted(exc.items(), key=lambda kv: -kv[1])]))
    mm = [d for d in cpu["mmio"] if d["reads"] or d["writes"]]
    if mm:
        items = [("%s @%#x" % (d["device"], d["base"]), d["reads"] + d["writes"], "#4e79a7") for d in mm]
        parts.append(bar_chart("MMIO accesses per device (reads + writes)", items))
    parts.append('</section>')
    return "\n".join(parts)


def timing_section(tm):
    """--timing: hit / miss breakdown per level, DRAM rows and banks, per kernel and per job."""
    t = tm["totals"]
    c = t["counts"]
    parts = ['<section><h2>Timing model (%s)</h2>' % esc(tm["config"].get("preset", "")), '<div class="charts">']
    for lvl in ("l1", "l2"):
        x = c[lvl]
        parts.append(bar_chart("GPU %s: %s accesses" % (lvl.upper(), fmt(x["accesses"])),
                               [("hits", x["hits"] - x["mshr_merges"], "#4caf50"),
                                ("MSHR merges", x["mshr_merges"], "#8bc34a"),
                                ("cold misses", x["cold"], "#2196f3"), ("capacity misses", x["capacity"], "#ff9800"),
                                ("conflict misses", x["conflict"], "#f44336")]))
        parts.append(bar_chart("GPU %s accesses per bank" % lvl.upper(),
                               [("bank %d" % i, v, "#607d8b") for i, v in enumerate(x["banks"])]))
    d = c["dram"]
    parts.append(bar_chart("DRAM: %s accesses, %s bytes, %.3f GB/s" % (fmt(d["reads"] + d["writes"]), fmt(d["bytes"]),
                                                                       t["dram_gbytes_per_s"]),
                           [("row hits", d["row_hits"], "#4caf50"), ("row empty", d["row_empty"], "#2196f3"),
                            ("row conflicts", d["row_conflicts"], "#f44336")]))
    parts.append(bar_chart("DRAM accesses per bank (channel-major)",
                           [("bank %d" % i, v, "#607d8b") for i, v in enumerate(d["banks"])]))
    parts.append(bar_chart("Modelled cycles, all jobs", [("issue", t["issue_cycles"], "#9c27b0"),
                                                         ("memory stall", t["stall_cycles"], "#ff5722")]))
    parts.append('</div>')
    head = ["L1 accesses", "L1 hit %", "L2 accesses", "L2 hit %", "DRAM rd/wr", "row hit %", "issue cycles",
            "stall cycles"]

    def row(x):
        k = x["counts"]
        dr = k["dram"]["reads"] + k["dram"]["writes"]
        return [fmt(k["l1"]["accesses"]), "%.1f" % (100.0 * k["l1"]["hits"] / max(1, k["l1"]["accesses"])),
                fmt(k["l2"]["accesses"]), "%.1f" % (100.0 * k["l2"]["hits"] / max(1, k["l2"]["accesses"])),
                "%s / %s" % (fmt(k["dram"]["reads"]), fmt(k["dram"]["writes"])),
                "%.1f" % (100.0 * k["dram"]["row_hits"] / max(1, dr)), fmt(x["issue_cycles"]), fmt(x["stall_cycles"])]
    if tm["kernels"]:
        parts.append(table([[k["kernel"], k["jobs"]] + row(k) for k in tm["kernels"]], ["kernel", "jobs"] + head))
    if tm["jobs"]:
        parts.append('<details><summary>Jobs (%d)</summary>%s</details>' % (
            len(tm["jobs"]), table([[j["job"], j["kernel"]] + row(j) for j in tm["jobs"][:500]], ["job", "kernel"] + head)))
    parts.append('<details><summary>Configuration</summary>%s</details>' % table(
        [[k, v] for k, v in tm["config"].items()], ["key", "value"]))
    parts.append('</section>')
    return "\n".join(parts)


def names_section(roi):
    """Kernels by the names the guest gave their launches (roi.kernel_names): one row per name
    with its totals, one row per launch beneath."""
    names = roi.get("kernel_names", [])
    l = roi.get("launches", {})
    parts = ['<section id="names"><h2>Kernels by name (%d)</h2>' % len(names),
             '<p class="facts">%d launches announced through the guest channel, %d named a GPU job, %d cancelled, '
             '%d never matched, %d pending at exit</p>' % (l.get("announced", 0), l.get("matched", 0),
                                                           l.get("cancelled", 0), l.get("unmatched", 0),
                                                           l.get("pending", 0))]
    out = ['<table class="names"><tr>%s</tr>' % "".join(
        "<th>%s</th>" % h for h in ("kernel / launch", "launches", "job", "queue", "global", "local", "clause execs",
                                    "warp instrs", "thread instrs"))]
    for n in names:
        out.append('<tr class="name"><td>%s</td><td>%d</td><td></td><td></td><td></td><td></td><td>%s</td><td>%s</td>'
                   '<td>%s</td></tr>' % (esc(n["name"]), n["launches"], fmt(n["clause_executions"]),
                                         fmt(n["warp_instructions"]), fmt(n["thread_instructions"])))
        for r in n["rows"][:200]:
            dims = r["dims"]
            out.append('<tr class="launch"><td>launch %d</td><td></td><td>%s</td><td>%d</td><td>%s</td><td>%s</td>'
                       '<td>%s</td><td>%s</td><td>%s</td></tr>'
                       % (r["launch"], "" if r["job"] is None else r["job"], r["queue"],
                          " x ".join(str(g) for g in r["global"][:dims]),
                          " x ".join(str(g) for g in r["local"][:dims]) if any(r["local"]) else "driver's",
                          fmt(r["clause_executions"]), fmt(r["warp_instructions"]), fmt(r["thread_instructions"])))
        if len(n["rows"]) > 200:
            out.append('<tr class="launch"><td colspan="9">%d more launches in the JSON report</td></tr>'
                       % (len(n["rows"]) - 200))
    out.append('</table>')
    parts.append("\n".join(out))
    parts.append('</section>')
    return "\n".join(parts)


def span_section(r, kind, regions, level):
    """A region or a dump: what ran between its begin and end only."""
    g = r["gpu"]
    path = [r["name"]] if kind == "region" else [r["tag"]]
    p = r.get("parent")
    while kind == "region" and p is not None:
        path.insert(0, regions[p]["name"])
        p = regions[p].get("parent")
    title = " / ".join(path)
    dur = ""
    if r["end"] is not None:
        dur = ", %.3f ms guest time, %.3f ms host time" % ((r["end"]["guest_ns"] - r["begin"]["guest_ns"]) / 1e6,
                                                           (r["end"]["host_ns"] - r["begin"]["host_ns"]) / 1e6)
    parts = ['<section class="region" id="%s%d" style="margin-left:%dem"><h3>%s %d: %s%s</h3>'
             % (kind, r["id"], 2 * r.get("depth", 0), kind.capitalize(), r["id"], esc(title),
                "" if r["end"] is not None else " (still open at exit)"),
             '<p class="facts">CPU: %s instructions%s; GPU: %d jobs (%s..%s), %s clause executions, %s thread '
             'instructions, %s divergent of %s branch-clause executions, %s bytes global memory (thread)</p>'
             % (fmt(r["cpu_instructions"]), dur, g["jobs"], r["first_job"], r["end_job"] - 1 if g["jobs"] else "-",
                fmt(g["clause_executions"]), fmt(g["thread_instructions"]),
                fmt(g["divergence"]["divergent_executions"]), fmt(g["divergence"]["branch_clause_executions"]),
                fmt(g["data"].get("global_bytes", {}).get("thread", 0)))]
    if g["jobs"]:
        parts.append('<div class="charts">')
        parts.append(bar_chart("Instruction mix (%s)" % level, grouped(g["instruction_mix"], CLASS_GROUPS, level)))
        parts.append(bar_chart("Operand and memory accesses (%s)" % level, grouped(g["data"], DATA_GROUPS, level)))
        parts.append('</div>')
    if "timing" in r:
        t = r["timing"]
        c = t["counts"]
        parts.append(table([[t["jobs"], fmt(c["l1"]["accesses"]), fmt(c["l1"]["hits"]), fmt(c["l2"]["accesses"]),
                             fmt(c["l2"]["hits"]), fmt(c["dram"]["reads"]), fmt(c["dram"]["writes"]),
                             fmt(t["issue_cycles"]), fmt(t["stall_cycles"])]],
                           ["timing jobs", "L1 accesses", "L1 hits", "L2 accesses", "L2 hits", "DRAM reads",
                            "DRAM writes", "issue cycles", "stall cycles"]))
    parts.append('</section>')
    return "\n".join(parts)


def regions_section(roi, level):
    """Regions of interest (nested: indented under their parents), stats dumps, annotations."""
    regs, dumps, notes = roi.get("regions", []), roi.get("dumps", []), roi.get("annotations", [])
    parts = ['<section id="regions"><h2>Regions (%d), dumps (%d), annotations (%d)</h2>' % (len(regs), len(dumps),
                                                                                          len(notes))]
    ch = roi.get("channel", {})
    if ch.get("errors"):
        parts.append('<p class="warn">%d of %d guest channel calls were refused: %s</p>' % (
            ch["errors"], ch["calls"], esc(", ".join("%s %d" % kv for kv in ch["errors_by_code"].items() if kv[1]))))
    for r in regs[:200]:
        parts.append(span_section(r, "region", regs, level))
    for d in dumps[:200]:
        parts.append(span_section(d, "dump", regs, level))
    if notes:
        parts.append('<details><summary>Annotations (%d)</summary>%s</details>' % (len(notes), table(
            [[a["id"], "%.3f" % (a["at"]["guest_ns"] / 1e6), a["at"]["cpu"], a["jobs_before"], a["text"]]
             for a in notes[:1000]], ["id", "guest ms", "vCPU", "GPU jobs before", "text"])))
    parts.append('</section>')
    return "\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", help="JSON written by malibu --stats")
    ap.add_argument("-o", "--output", required=True, help="output directory (index.html)")
    ap.add_argument("--level", choices=["warp", "thread"], default="warp",
                    help="count instructions per warp (default) or per thread")
    ap.add_argument("--timeline", metavar="TIMELINE.json",
                    help="also draw the timeline malibu --timeline wrote (of the same run)")
    a = ap.parse_args()
    with open(a.report) as f:
        r = json.load(f)
    if r.get("schema") not in SCHEMAS:
        sys.exit("malibu-report: %s: schema %r, expected one of %s" % (a.report, r.get("schema"), ", ".join(SCHEMAS)))
    os.makedirs(a.output, exist_ok=True)
    gpu = r["gpu"]
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8"/>',
           '<title>malibu report: %s</title><style>%s</style></head><body>' % (esc(os.path.basename(a.report)), CSS),
           '<h1>malibu report</h1>',
           '<p class="facts">%s, generated %s; %s</p>' % (esc(r["schema"]), esc(r.get("date", "")),
                                                        esc(", ".join("%s=%s" % kv for kv in r.get("config", {}).items())))]
    if r.get("complete") is False:
        out.append('<p class="warn">Incomplete report: malibu was stopped (%s) before the guest finished; '
                   'a GPU job still running then is counted up to where it was stopped.</p>' % esc(r.get("exit_reason", "?")))
    if not gpu.get("executor_hook", True) and not gpu["kernels"]:
        out.append('<p class="note">This malibu was built without the executor hook: no per-clause GPU counts.</p>')
    if a.timeline:   # first: the overview of the run
        out.append(timeline_section(a.timeline))
    t = gpu["totals"]
    out.append('<section><h2>GPU totals (%d kernel%s)</h2>' % (len(gpu["kernels"]), "" if len(gpu["kernels"]) == 1 else "s"))
    out.append('<div class="charts">')
    out.append(bar_chart("Instruction mix, all kernels (%s)" % a.level, grouped(t["instruction_mix"], CLASS_GROUPS, a.level)))
    out.append(histogram("Clause sizes, all kernels", t["clause_sizes"]))
    out.append(bar_chart("Operand accesses, all kernels (%s)" % a.level, grouped(t["data"], DATA_GROUPS, a.level)))
    out.append('</div>')
    if gpu["kernels"]:
        out.append(table([[k["id"], k["name"], k.get("code_hash", "")[:8], k.get("code_bytes", ""), k.get("jobs", ""),
                           fmt(k["totals"]["clause_executions"]), fmt(k["totals"]["warp_instructions"]),
                           fmt(k["totals"]["divergence"]["divergent_executions"])]
                          for k in gpu["kernels"]],
                         ["id", "kernel", "code", "code bytes", "jobs", "clause execs", "warp instrs", "divergent execs"]))
    jobs = gpu.get("shader_jobs", [])
    if jobs:
        rows = [[j["id"], "" if j["kernel"] is None else j["kernel"], j.get("name", ""),
                 "" if j["shader_va"] is None else "%#x/as%d" % (j["shader_va"], j["as"]),
                 "running / not reported" if j["status"] is None else "done" if j["status"] == 1
                 else "fault %#x" % j["status"], fmt(j["clause_executions"]),
                 fmt(j["thread_instructions"])] for j in jobs[:500]]
        more = len(jobs) - len(rows) + gpu.get("shader_jobs_omitted", 0)
        out.append('<details><summary>Shader jobs (%d%s)</summary>%s</details>' % (
            len(jobs) + gpu.get("shader_jobs_omitted", 0), ", %d not shown" % more if more else "",
            table(rows, ["job", "kernel", "name", "shader VA", "status", "clause execs", "thread instrs"])))
    out.append('</section>')
    roi = r.get("roi", {})
    if roi.get("kernel_names"):
        out.append(names_section(roi))
    if roi.get("regions") or roi.get("dumps") or roi.get("annotations"):
        out.append(regions_section(roi, a.level))
    for k in gpu["kernels"]:
        out.append(kernel_section(k, a.output, a.level))
    if "timing" in r:
        out.append(timing_section(r["timing"]))
    out.append(system_section(r))
    out.append('</body></html>')
    with open(os.path.join(a.output, "index.html"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("malibu-report: %s" % os.path.join(a.output, "index.html"))


if __name__ == "__main__":
    main()
