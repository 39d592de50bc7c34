"""collect: the points' stats JSON (emu/stats/SCHEMA.md) and logs as one table (results.csv,
and results.parquet when pandas can write it), plots (matplotlib: SVG + PNG, with the plotted
data as CSV beside them), and index.html linking plots, table and each point's files."""
import csv
import html
import json
import os
import re
import subprocess

from . import runner

# metrics from --stats; host-time figures are left out so that a table depends on the points only
METRICS = ["modelled_cycles", "modelled_ns", "issue_cycles", "stall_cycles", "l1_hit_rate", "l2_hit_rate",
           "dram_row_hits", "dram_row_hit_rate", "dram_reads", "warp_instructions", "thread_instructions",
           "gpu_jobs", "cpu_instructions"]


def size_value(v):
    """'16K' -> 16384, '2M', 64 -> 64; None when not a number."""
    if isinstance(v, (int, float)):
        return v
    m = re.match(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)\s*$", str(v))
    if not m:
        return None
    n = float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()]
    return int(n) if n.is_integer() else n


def ratio(a, b):
    return round(a / b, 6) if b else ""


def metrics(stats, log, kernel, capture):
    """One point's metrics: the timing model's (modelled time, hit rates, DRAM rows) over the
    kernels named `kernel` (a substring of gpu.kernels[].name; None: every kernel), instruction
    counts, and the `capture` regexes' last match in the log."""
    out = {}
    gk = stats["gpu"]["kernels"]
    ids = [k["id"] for k in gk if kernel is None or kernel in k["name"]]
    if not ids:   # no such kernel ran (unnamed kernels: the OpenCL layer names them): blank
        ids = None
    out["cpu_instructions"] = stats["cpu"]["instructions"]
    for name, rx in capture.items():
        found = re.findall(rx, log)
        v = found[-1] if found else ""
        out[name] = size_value(v) if size_value(v) is not None else v
    if ids is None:
        return out
    tot = {"warp_instructions": 0, "thread_instructions": 0}
    for k in gk:
        if k["id"] in ids:
            for key in tot:
                tot[key] += k["totals"][key]
    out.update(tot)
    out["gpu_jobs"] = sum(k["jobs"] for k in gk if k["id"] in ids)
    t = stats.get("timing")
    if t:
        sel = [k for k in t["kernels"] if k["kernel"] in ids] if kernel is not None else [t["totals"]]
        def s(path):
            n = 0
            for k in sel:
                v = k
                for p in path.split("."):
                    v = v[p]
                n += v
            return n
        mhz = int(stats["config"].get("gpu_mhz") or t["config"].get("gpu.mhz"))
        out["modelled_cycles"] = s("modelled_cycles")
        out["modelled_ns"] = round(out["modelled_cycles"] * 1000 / mhz, 3)
        out["issue_cycles"] = s("issue_cycles")
        out["stall_cycles"] = s("stall_cycles")
        out["l1_hit_rate"] = ratio(s("counts.l1.hits"), s("counts.l1.accesses"))
        out["l2_hit_rate"] = ratio(s("counts.l2.hits"), s("counts.l2.accesses"))
        out["dram_row_hits"] = s("counts.dram.row_hits")
        out["dram_reads"] = s("counts.dram.reads")
        out["dram_row_hit_rate"] = ratio(out["dram_row_hits"], s("counts.dram.row_hits") + s("counts.dram.row_empty")
                                         + s("counts.dram.row_conflicts"))
    return out


def table(sweep_dir):
    """(header, rows): one row per done point, in point order: index, parameters, metrics."""
    meta = runner.read_json(os.path.join(sweep_dir, "sweep.json"))
    cols = meta["columns"]
    names = METRICS + list(meta["capture"])
    rows = []
    for i, p in enumerate(meta["points"]):
        if runner.state(sweep_dir, i) != "done":
            continue
        d = runner.point_dir(sweep_dir, i)
        stats = runner.read_json(os.path.join(d, "stats.json"))
        with open(os.path.join(d, "log.txt"), errors="replace") as f:
            log = f.read().replace("\r", "")
        m = metrics(stats, log, meta["kernel"], meta["capture"])
        rows.append([i] + [p.get(c, "") for c in cols] + [m.get(k, "") for k in names])
    return ["point"] + cols + names, rows


def write_table(sweep_dir, header, rows):
    path = os.path.join(sweep_dir, "results.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    parquet = None
    try:
        import pandas
        df = pandas.DataFrame(rows, columns=header).astype(str)
        df.to_parquet(os.path.join(sweep_dir, "results.parquet"))
        parquet = "results.parquet"
    except Exception as e:   # pandas, pyarrow/fastparquet absent: CSV only, said so
        parquet = None
        why = "%s: %s" % (type(e).__name__, e)
        with open(os.path.join(sweep_dir, "results.parquet.txt"), "w") as f:
            f.write("no Parquet table: %s\n" % why)
    return path, parquet


def plot(sweep_dir, header, rows, pl, idx):
    """Metric y against parameter x, one line per value of parameter `lines`: plots/NAME.svg,
    .png, and NAME.csv holding exactly the arrays handed to matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    name = pl.get("name", "%s_vs_%s" % (pl["y"], pl["x"]))
    col = {h: i for i, h in enumerate(header)}
    if pl["y"] not in col:
        raise ValueError("plot %s: no column %s" % (name, pl["y"]))
    series = {}
    where = pl.get("where", {})
    rows = [r for r in rows if all(str(r[col[k]]) == str(v) for k, v in where.items())]
    for r in rows:
        key = r[col[pl["lines"]]] if "lines" in pl else ""
        series.setdefault(key, []).append(r)
    os.makedirs(os.path.join(sweep_dir, "plots"), exist_ok=True)
    base = os.path.join(sweep_dir, "plots", name)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    data = []
    for key in sorted(series, key=lambda v: (size_value(v) is None, size_value(v) or 0, str(v))):
        pts = sorted(series[key], key=lambda r: (size_value(r[col[pl["x"]]]) or 0, r[0]))
        xs = [size_value(r[col[pl["x"]]]) for r in pts]
        ys = [r[col[pl["y"]]] for r in pts]
        ys = [float(y) if y != "" else float("nan") for y in ys]
        label = "%s=%s" % (pl["lines"], key) if "lines" in pl else pl["y"]
        ax.plot(xs, ys, marker="o", label=label)
        data += [(label, r[0], r[col[pl["x"]]], x, y) for r, x, y in zip(pts, xs, ys)]
    if pl.get("logx"):
        ax.set_xscale("log", base=2)
    if pl.get("logy"):
        ax.set_yscale("log")
    ax.set_xlabel(pl["x"])
    ax.set_ylabel(pl["y"])
    ax.set_title(pl.get("title", "%s vs %s" % (pl["y"], pl["x"])))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(base + ".svg", metadata={"Date": None})
    fig.savefig(base + ".png", dpi=100)
    plt.close(fig)
    with open(base + ".csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["line", "point", pl["x"], "x", pl["y"]])
        w.writerows(data)
    return name


def point_reports(sweep_dir, rows):
    """Each done point's --stats report rendered by malibu-report (beside malibu) into
    points/NNNN/report/ (when absent or older than its stats); the points that have one."""
    meta = runner.read_json(os.path.join(sweep_dir, "sweep.json"))
    tool = os.path.join(os.path.dirname(meta.get("malibu", "")), "malibu-report")
    have = set()
    for r in rows:
        d = runner.point_dir(sweep_dir, r[0])
        stats, index = os.path.join(d, "stats.json"), os.path.join(d, "report", "index.html")
        if os.access(tool, os.X_OK) and (not os.path.exists(index) or
                                         os.path.getmtime(index) < os.path.getmtime(stats)):
            subprocess.run([tool, stats, "-o", os.path.join(d, "report")], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        if os.path.exists(index):
            have.add(r[0])
    return have


def index_html(sweep_dir, header, rows, plots, parquet, reports=()):
    meta = runner.read_json(os.path.join(sweep_dir, "sweep.json"))
    e = html.escape
    out = ["<!doctype html><meta charset=utf-8><title>sweep %s</title>" % e(meta["name"]),
           "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
           "padding:2px 6px;font-size:12px}img{max-width:720px}</style>",
           "<h1>sweep %s</h1><p>spec %s, %d points; <a href=results.csv>results.csv</a>%s</p>" % (
               e(meta["name"]), e(meta["spec"]), len(meta["points"]),
               ", <a href=%s>%s</a>" % (parquet, parquet) if parquet else " (no Parquet: results.parquet.txt)")]
    for name in plots:
        out.append("<h2>%s</h2><a href=plots/%s.svg><img src=plots/%s.svg></a> <a href=plots/%s.png>PNG</a> "
                   "<a href=plots/%s.csv>data</a>" % ((e(name),) * 5))
    out.append("<h2>points</h2><table><tr>%s<th>files</th></tr>" % "".join("<th>%s</th>" % e(h) for h in header))
    for r in rows:
        d = "points/%04d" % r[0]
        out.append("<tr>%s<td><a href=%s/cmd.sh>cmd</a> <a href=%s/log.txt>log</a> <a href=%s/stats.json>stats</a>%s"
                   "</td></tr>" % ("".join("<td>%s</td>" % e(str(v)) for v in r), d, d, d,
                                   " <a href=%s/report/index.html>report</a>" % d if r[0] in reports else ""))
    out.append("</table>")
    with open(os.path.join(sweep_dir, "index.html"), "w") as f:
        f.write("\n".join(out) + "\n")


def collect(sweep_dir, out):
    meta = runner.read_json(os.path.join(sweep_dir, "sweep.json"))
    header, rows = table(sweep_dir)
    path, parquet = write_table(sweep_dir, header, rows)
    plots = [plot(sweep_dir, header, rows, pl, i) for i, pl in enumerate(meta["plots"])] if rows else []
    index_html(sweep_dir, header, rows, plots, parquet, point_reports(sweep_dir, rows))
    n = len(meta["points"])
    print("malibu-sweep: %d of %d points in %s%s; %d plot(s); %s" % (
        len(rows), n, path, " and " + parquet if parquet else " (Parquet: not written, see results.parquet.txt)",
        len(plots), os.path.join(sweep_dir, "index.html")), file=out)
    return len(rows) == n
