//go:build unix

package notify

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in its own process group and kills the whole group
// on cancel, so a shell's children die with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
