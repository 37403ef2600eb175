package localcluster

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// stateFile records the supervisor and its children, so that a later start
// in the same directory can tell a live cluster from the leftovers of one
// that was killed.
const stateFile = "localcluster.pid"

type stateEntry struct {
	name string
	pid  int
	exe  string
}

func readState(dir string) ([]stateEntry, error) {
	f, err := os.Open(filepath.Join(dir, stateFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var entries []stateEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), " ", 3)
		if len(fields) != 3 {
			continue
		}
		pid, err := strconv.Atoi(fields[1])
		if err != nil {
			continue
		}
		entries = append(entries, stateEntry{name: fields[0], pid: pid, exe: fields[2]})
	}
	return entries, sc.Err()
}

func writeState(dir string, entries []stateEntry) error {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%s %d %s\n", e.name, e.pid, e.exe)
	}
	tmp := filepath.Join(dir, stateFile+".tmp")
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, stateFile))
}

// claimDir makes dir ours: it refuses if a live supervisor owns it, and
// otherwise kills what a dead one left running (a supervisor killed with
// SIGKILL takes its children along through PR_SET_PDEATHSIG, but a
// component may have forked) and records this process as the owner.
func claimDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := readState(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.name == "supervisor" && e.pid != os.Getpid() && processAlive(e.pid, e.exe) {
			return fmt.Errorf("a local cluster is already running from %s (pid %d); stop it first (Ctrl-C in its terminal, or kill %d)", dir, e.pid, e.pid)
		}
	}
	for _, e := range entries {
		if e.name != "supervisor" && processAlive(e.pid, e.exe) {
			_ = syscall.Kill(-e.pid, syscall.SIGKILL)
			for i := 0; i < 50 && processAlive(e.pid, e.exe); i++ {
				time.Sleep(100 * time.Millisecond)
			}
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return writeState(dir, []stateEntry{{name: "supervisor", pid: os.Getpid(), exe: self}})
}

// recordChildren adds the running children to the state file.
func recordChildren(dir string, procs []*process) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	entries := []stateEntry{{name: "supervisor", pid: os.Getpid(), exe: self}}
	for _, p := range procs {
		exe, err := filepath.Abs(p.cmd.Path)
		if err != nil {
			return err
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		entries = append(entries, stateEntry{name: p.name, pid: p.pid(), exe: exe})
	}
	return writeState(dir, entries)
}

// releaseDir removes the state file.
func releaseDir(dir string) {
	_ = os.Remove(filepath.Join(dir, stateFile))
}
