//go:build !unix

package notify

import "os/exec"

// killGroup: without process groups, cancel kills the shell only.
func killGroup(*exec.Cmd) {}
