package localcluster

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is one supervised component: its own process group, its output
// in <logDir>/<name>.log, killed by the kernel if the supervisor dies.
type process struct {
	name    string
	logPath string
	cmd     *exec.Cmd
	// bin, args and env are what it was started with, so that it can be
	// started again the same way (Cluster.Restart).
	bin       string
	args, env []string
	logDir    string
	// logStart is the size of the log when this run of the component
	// started: a restarted component appends to its log, and what it
	// wrote before belongs to its previous run.
	logStart int64

	done     chan struct{}
	err      error
	stopping bool
	// lease is what the log says of the scheduler's lease (leader.go).
	lease leaseScan
	mu    sync.Mutex
}

// spawner starts every child from one OS thread that lives as long as the
// cluster. Children get SIGKILL when the thread that forked them exits
// (PR_SET_PDEATHSIG), so that thread must not be one the Go runtime may
// retire while the children run.
type spawner struct {
	requests chan spawnRequest
	quit     chan struct{}
}

type spawnRequest struct {
	cmd *exec.Cmd
	err chan error
}

func newSpawner() *spawner {
	s := &spawner{requests: make(chan spawnRequest), quit: make(chan struct{})}
	go func() {
		runtime.LockOSThread()
		// The thread is retired when this goroutine exits while locked,
		// which is what we want once every child is gone.
		for {
			select {
			case r := <-s.requests:
				r.err <- r.cmd.Start()
			case <-s.quit:
				return
			}
		}
	}()
	return s
}

func (s *spawner) start(cmd *exec.Cmd) error {
	errc := make(chan error, 1)
	s.requests <- spawnRequest{cmd: cmd, err: errc}
	return <-errc
}

func (s *spawner) close() { close(s.quit) }

// startProcess runs bin with args, output to logDir/name.log. The log is
// started afresh unless appendLog, which a restart sets so that the
// previous run's lines stay for whoever investigates it.
func (s *spawner) startProcess(name, bin string, args, env []string, logDir string, appendLog bool) (*process, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%s: %w (build it with `make cluster-binaries`)", name, err)
	}
	logPath := filepath.Join(logDir, name+".log")
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendLog {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	logFile, err := os.OpenFile(logPath, flags, 0o644)
	if err != nil {
		return nil, err
	}
	var logStart int64
	if st, err := logFile.Stat(); err == nil {
		logStart = st.Size()
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.start(cmd); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{
		name: name, logPath: logPath, cmd: cmd, done: make(chan struct{}),
		bin: bin, args: args, env: env, logDir: logDir, logStart: logStart,
	}
	go func() {
		err := cmd.Wait()
		_ = logFile.Close()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	}()
	return p, nil
}

// pid is the process id (and process group id) of the component.
func (p *process) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process has exited, and with what.
func (p *process) exited() (bool, error) {
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return true, p.err
	default:
		return false, nil
	}
}

// unexpectedExit describes an exit that nobody asked for, with the end of
// the component's log.
func (p *process) unexpectedExit() error {
	p.mu.Lock()
	err, stopping := p.err, p.stopping
	p.mu.Unlock()
	if stopping {
		return nil
	}
	if err == nil {
		err = errors.New("exited")
	}
	return fmt.Errorf("%s stopped unexpectedly (%v); last lines of %s:\n%s", p.name, err, p.logPath, p.tail(20))
}

// stop sends SIGTERM to the process group, waits up to grace for the
// process to exit, then sends SIGKILL to the group.
func (p *process) stop(grace time.Duration) {
	p.mu.Lock()
	p.stopping = true
	p.mu.Unlock()
	pgid := p.pid()
	select {
	case <-p.done:
		// Already exited and reaped: its pid may belong to someone else now.
	default:
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(grace):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-p.done
		}
	}
}

// kill sends SIGKILL to the process group at once, as a machine failure
// or an OOM kill would, and waits for the process to exit. The exit is
// not reported as unexpected.
func (p *process) kill() {
	p.mu.Lock()
	p.stopping = true
	p.mu.Unlock()
	select {
	case <-p.done:
	default:
		_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
		<-p.done
	}
}

// tail returns the last n lines of the component's log.
func (p *process) tail(n int) string {
	f, err := os.Open(p.logPath)
	if err != nil {
		return err.Error()
	}
	defer func() { _ = f.Close() }()
	const maxRead = 64 << 10
	if st, err := f.Stat(); err == nil && st.Size() > maxRead {
		_, _ = f.Seek(st.Size()-maxRead, io.SeekStart)
	}
	data, _ := io.ReadAll(f)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

// processAlive reports whether pid is a live process running exe.
func processAlive(pid int, exe string) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	target, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
	if err != nil {
		return false
	}
	return strings.TrimSuffix(target, " (deleted)") == exe
}

// rssBytes returns the resident set size of a live process.
func rssBytes(pid int) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			fields := strings.Fields(string(v))
			if len(fields) > 0 {
				kb, _ := strconv.ParseInt(fields[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}
