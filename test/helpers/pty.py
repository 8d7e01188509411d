#!/usr/bin/env python3
"""Runs one command on a real pseudo-terminal that reports a width, as a person's terminal would.

Reads a JSON job on stdin: {"argv": [...], "env": {...}, "cols": 80, "rows": 24, "timeout": 30,
"steps": [{"wait": "<regex>", "send": "<text>", "echoOff": true}]}. Each step waits until
the output so far matches `wait` (and, with `echoOff`, until the program has turned the terminal's echo
off: a hidden prompt ready for its input), then types `send` (e.g. "\\u0003" for Ctrl-C). Writes a JSON report on stdout:
the output, how the process ended, and the terminal's modes after it ended (echo, isig, icanon),
read from the slave side, which this helper keeps open for that reason.
Standard library only, so the tests install nothing for it.
"""
import fcntl, json, os, re, select, signal, struct, sys, termios, time

job = json.load(sys.stdin)
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', job.get('rows', 24), job.get('cols', 80), 0, 0))
before = termios.tcgetattr(slave)

pid = os.fork()
if pid == 0:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.close(master)
    os.close(slave)
    os.execvpe(job['argv'][0], job['argv'], job['env'])

out = b''
steps = list(job.get('steps', []))
deadline = time.time() + job.get('timeout', 30)
status = None
timed_out = False
sent_at = []
while True:
    ready, _, _ = select.select([master], [], [], 0.05)
    if ready:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            chunk = b''
        out += chunk
    if steps and re.search(steps[0]['wait'], out.decode('utf-8', 'replace')) and not (
        steps[0].get('echoOff') and termios.tcgetattr(slave)[3] & termios.ECHO
    ):
        step = steps.pop(0)
        os.write(master, step['send'].encode('utf-8'))
        sent_at.append(round(time.time(), 3))
    if status is None:
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
    if status is not None and not ready:
        break
    if time.time() > deadline:
        timed_out = True
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        break

after = termios.tcgetattr(slave)
lflag = after[3]
print(json.dumps({
    'output': out.decode('utf-8', 'replace'),
    'code': os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
    'signal': os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
    'timedOut': timed_out,
    'stepsLeft': len(steps),
    'modes': {
        'echo': bool(lflag & termios.ECHO),
        'isig': bool(lflag & termios.ISIG),
        'icanon': bool(lflag & termios.ICANON),
    },
    'modesUnchanged': after == before,
}))
