"""Peak memory of the processes a cupsd runs for jobs (its filters, backends and their children),
sampled from /proc: the largest VmHWM of any one process, the largest sum of VmRSS over all of
them in one sample, and the largest sum of their Pss (each shared page counted once, divided among
the processes that map it: the chain's memory without counting shared libraries once per process).
Used by the benchmarks that go through CUPS."""
import os, re, threading, time


def _kb(status, key):
    m = re.search(rb"^" + key + rb":\s+(\d+) kB", status, re.M)
    return int(m.group(1)) if m else 0


class ChainSampler:
    """Samples every ~5 ms on a thread of its own until stop()."""

    def __init__(self, cupsd_pid):
        self.cupsd = cupsd_pid
        self.hwm, self.who, self.sum, self.pss, self.samples = 0, "-", 0, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join()

    def _run(self):
        while not self._stop.is_set():
            children = {}
            for name in os.listdir("/proc"):
                if not name.isdigit():
                    continue
                try:
                    with open("/proc/%s/stat" % name, "rb") as f:
                        s = f.read()
                except OSError:
                    continue
                r = s.rfind(b")")
                children.setdefault(int(s[r + 2:].split()[1]), []).append(int(name))
            todo, total, pss = list(children.get(self.cupsd, [])), 0, 0
            while todo:
                pid = todo.pop()
                todo.extend(children.get(pid, []))
                try:
                    exe = os.path.basename(os.readlink("/proc/%d/exe" % pid))
                    with open("/proc/%d/status" % pid, "rb") as f:
                        st = f.read()
                except OSError:
                    continue
                if exe in ("cupsd", "cups-exec"):  # cupsd's own fork before it execs a filter
                    continue
                hwm = _kb(st, b"VmHWM")
                total += _kb(st, b"VmRSS")
                try:
                    with open("/proc/%d/smaps_rollup" % pid, "rb") as f:
                        pss += _kb(f.read(), b"Pss")
                except OSError:
                    pass
                if hwm > self.hwm:
                    self.hwm, self.who = hwm, exe
            self.sum = max(self.sum, total)
            self.pss = max(self.pss, pss)
            self.samples += 1
            time.sleep(0.005)
