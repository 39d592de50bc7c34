"""A private single-node Slurm for tests: Debian's munged, slurmctld and slurmd in the foreground
(-F / -D) as the current user, with their own munge key, socket, slurm.conf, state and spool
directories and ports in a temporary directory; no root and nothing of the host's configuration
(/etc/slurm, /etc/munge) is used.  Clients see it through SLURM_CONF (env()).  Works as root
and as any other user (checked as nobody: the daemons and the array's tasks ran as uid 65534)."""
import os
import shutil
import socket
import subprocess
import time

DAEMONS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, tmp, cpus=None):
        missing = [d for d in DAEMONS if not shutil.which(d) and not os.path.exists("/usr/sbin/" + d)]
        if missing:
            raise RuntimeError("Slurm test: missing %s (Debian: slurm-wlm slurmctld slurmd slurm-client munge; "
                               "make host-deps)" % ", ".join(missing))
        self.tmp = tmp
        self.cpus = cpus or os.cpu_count()
        self.procs = []
        self.user = __import__("pwd").getpwuid(os.getuid()).pw_name

    def path(self, *p):
        return os.path.join(self.tmp, *p)

    def env(self):
        e = dict(os.environ)
        e["SLURM_CONF"] = self.path("slurm.conf")
        return e

    def _spawn(self, name, argv):
        log = open(self.path(name + ".out"), "w")
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=self.env())
        self.procs.append((name, p))
        return p

    def start(self):
        for d in ("munge", "state", "spool"):
            os.makedirs(self.path(d), mode=0o700, exist_ok=True)
        os.chmod(self.tmp, 0o700)   # munged refuses a socket directory others can write to
        key = self.path("munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        self.sock = self.path("munge", "munge.socket")
        munged = shutil.which("munged") or "/usr/sbin/munged"
        self._spawn("munged", [munged, "-F", "--force", "--key-file", key, "--socket", self.sock,
                               "--pid-file", self.path("munge", "munged.pid"), "--log-file", self.path("munged.log"),
                               "--seed-file", self.path("munge", "munged.seed")])
        self._wait(lambda: os.path.exists(self.sock), "munged's socket")
        ctl_port, d_port = free_port(), free_port()
        conf = """ClusterName=malibutest
SlurmctldHost=localhost(127.0.0.1)
SlurmUser={user}
SlurmdUser={user}
SlurmctldPort={ctl}
SlurmdPort={d}
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/slurmctld.log
SlurmdLogFile={tmp}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
SlurmdTimeout=30
NodeName=node0 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=sweep Nodes=node0 Default=YES MaxTime=INFINITE State=UP
""".format(user=self.user, ctl=ctl_port, d=d_port, sock=self.sock, tmp=self.tmp, cpus=self.cpus)
        with open(self.path("slurm.conf"), "w") as f:
            f.write(conf)
        self._spawn("slurmctld", ["/usr/sbin/slurmctld", "-D", "-i", "-f", self.path("slurm.conf")])
        self._spawn("slurmd", ["/usr/sbin/slurmd", "-D", "-N", "node0", "-f", self.path("slurm.conf")])
        self._wait(self._node_idle, "node0 idle in sinfo")

    def _node_idle(self):
        r = subprocess.run(["sinfo", "--noheader", "-N", "-o", "%T"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, env=self.env())
        return r.returncode == 0 and r.stdout.strip().startswith("idle")

    def _wait(self, cond, what, secs=60):
        t = time.time() + secs
        while time.time() < t:
            for name, p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError("Slurm test: %s exited (%d) waiting for %s:\n%s" % (
                        name, p.returncode, what, self.logs()))
            if cond():
                return
            time.sleep(0.3)
        raise RuntimeError("Slurm test: no %s after %d s:\n%s" % (what, secs, self.logs()))

    def logs(self):
        out = []
        for n in ("munged.out", "munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"):
            try:
                with open(self.path(n), errors="replace") as f:
                    out.append("--- %s\n%s" % (n, f.read()[-2000:]))
            except OSError:
                pass
        return "\n".join(out)

    def wait_jobs(self, secs):
        """Until the queue is empty (every array task ended)."""
        def empty():
            r = subprocess.run(["squeue", "--noheader"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env=self.env())
            return r.returncode == 0 and not r.stdout.strip()
        self._wait(empty, "empty queue", secs)

    def stop(self):
        for name, p in reversed(self.procs):   # slurmd, slurmctld, munged: each by its own pid
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self.procs = []
